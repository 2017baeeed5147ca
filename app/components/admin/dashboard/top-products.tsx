import type { TopProduct } from "#server/contracts/reports";
import { formatUsd } from "#server/contracts/money";

/** The range's best sellers by units (paid orders). */
export function TopProducts({ products }: { products: TopProduct[] }) {
  return (
    <section className="chart rounded-lg border border-border bg-card p-4 sm:p-5" aria-labelledby="top-products-title">
      <h3 id="top-products-title" className="text-sm font-semibold tracking-wide">
        Top products
      </h3>
      {products.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">No paid orders in this range.</p>
      ) : (
        <table className="mt-3 w-full text-left text-sm tabular-nums" data-testid="top-products">
          <thead className="text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                Product
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Units
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Revenue
              </th>
            </tr>
          </thead>
          <tbody>
            {products.map((product) => (
              <tr key={`${product.productId}-${product.name}`} className="border-t border-border">
                <th scope="row" className="py-2 pr-3 font-normal">
                  {product.name}
                </th>
                <td className="py-2 pr-3 text-right">{product.units}</td>
                <td className="py-2 text-right">{formatUsd(product.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
