import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useNavigate } from "@remix-run/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Info, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { productFormSchema, productPatchSchema, type AdminProduct, type ProductFormValue } from "#server/contracts/admin-products";
import { formatDollarAmount } from "#server/contracts/money";
import { STORE_TIME_ZONE, utcToStoreWallClock } from "#server/contracts/store-time";
import { Field } from "#app/components/field";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { useTRPC } from "#app/lib/trpc";
import { ColorField } from "./color-field";
import { Section, Switch, textareaClass } from "./form-fields";
import { ImageManager } from "./image-manager";
import { NOTICES, reasonOf } from "./messages";
import { ProductImageUpload } from "./product-image-field";
import { refreshedFrom, stockStateOf, toStockPatch, totalStock, touchesSizes, type SizeStock } from "./size-stock";
import { SizesEditor } from "./sizes-editor";
import type { ImageQueue } from "./use-image-queue";

const on = (flag: boolean) => (flag ? "on" : undefined);

/** conform's props carry `key`; React wants it passed on its own, not spread. */
function bare<T extends { key?: string }>({ key: _key, ...props }: T): Omit<T, "key"> {
  return props;
}

/** An AdminProduct as the form's strings (new products get the docs/spec.md §9 defaults). */
function defaultsOf(product: AdminProduct | null) {
  const release = product?.countdownReleaseDate ? utcToStoreWallClock(product.countdownReleaseDate) : null;
  return {
    name: product?.name ?? "",
    description: product?.description ?? "",
    price: product ? formatDollarAmount(product.price) : "",
    inventory: String(product?.inventory ?? 0),
    discountPercent: String(product?.discountPercent ?? 0),
    maxPerCustomer: product?.maxPerCustomer == null ? "" : String(product.maxPerCustomer),
    weight: String(product?.weight ?? 1),
    length: String(product?.length ?? 12),
    width: String(product?.width ?? 9),
    height: String(product?.height ?? 6),
    imageUrl: product?.imageUrl ?? "",
    imagePath: product?.imagePath ?? "",
    promoCode: product?.promoCode ?? "",
    availableColors: product?.availableColors ?? [],
    isVisible: on(product?.isVisible ?? true),
    isComingSoon: on(product?.isComingSoon ?? false),
    releaseDate: product?.releaseDate ?? "",
    isCountdownRestricted: on(product?.isCountdownRestricted ?? false),
    countdownDate: release?.date ?? "",
    countdownTime: release?.time ?? "",
    sizeGuide: product?.sizeGuide ?? "",
  };
}

/**
 * Add or edit one product (docs/spec.md §5 rules via the shared zod schema, checked here and again on the
 * server). Creating with images waiting switches to editing the new product and uploads them;
 * saving an edit resets the form and returns to the list.
 */
export function ProductForm({ product, queue, onDelete }: { product: AdminProduct | null; queue: ImageQueue; onDelete?: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [colors, setColors] = useState<string[]>(product?.availableColors ?? []);
  const [comingSoon, setComingSoon] = useState(product?.isComingSoon ?? false);
  const [restricted, setRestricted] = useState(product?.isCountdownRestricted ?? false);
  const [stock, setStock] = useState<SizeStock>(() => stockStateOf(product));
  const [sizesError, setSizesError] = useState<string | null>(null);
  // With sizes (or stock per colour) the product's inventory is a sum: shown, never typed.
  const summed = totalStock(stock, colors);

  const listKey = trpc.admin.products.list.queryKey();
  const create = useMutation(trpc.admin.products.create.mutationOptions());
  const update = useMutation(trpc.admin.products.update.mutationOptions());
  const saving = create.isPending || update.isPending;

  const [form, fields] = useForm({
    id: `product-${product?.id ?? "new"}`,
    defaultValue: defaultsOf(product),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: productFormSchema, disableAutoCoercion: true }),
    onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status === "success" && !saving) void save(submission.value);
    },
  });

  // The store image follows the primary image: when uploads or a new primary change it on the
  // server, the form takes it over, so saving other edits does not put back a stale picture.
  const serverImageUrl = product?.imageUrl ?? "";
  const serverImagePath = product?.imagePath ?? "";
  const synced = useRef(`${serverImageUrl}|${serverImagePath}`);
  useEffect(() => {
    const current = `${serverImageUrl}|${serverImagePath}`;
    if (synced.current === current) return;
    synced.current = current;
    form.update({ name: fields.imageUrl.name, value: serverImageUrl });
    form.update({ name: fields.imagePath.name, value: serverImagePath });
    // Only a change on the server should overwrite what the admin typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverImageUrl, serverImagePath]);

  // The stock this form started from: the server refuses to overwrite sales made since.
  const inventoryWas = useRef(product?.inventory ?? 0);

  /** The form's fields with the sizes editor's stock; null (and the message beside the editor) when it does not parse. */
  function withStock(input: ProductFormValue) {
    const { sizes: _formSizes, stockPerColor: _formMode, variants: _formGrid, ...rest } = input;
    if (!touchesSizes(product, stock)) return { ...rest, inventoryWas: inventoryWas.current };
    const patch = toStockPatch(stock, colors);
    // The same rules the server applies, said beside the editor before anything is sent.
    const parsed = productPatchSchema.pick({ sizes: true, variants: true, stockPerColor: true }).safeParse(patch);
    if (!parsed.success) {
      setSizesError(parsed.error.issues[0]?.message ?? NOTICES.error);
      return null;
    }
    if (summed === null) return { ...rest, ...patch, inventoryWas: inventoryWas.current };
    const { inventory: _sum, ...fields } = rest;
    return { ...fields, ...patch };
  }

  async function save(formValue: ProductFormValue) {
    setSizesError(null);
    const input = withStock(formValue);
    if (!input) return;
    if (product) {
      try {
        await update.mutateAsync({ id: product.id, data: input });
      } catch (error) {
        notify.error(NOTICES.updateFailed, reasonOf(error));
        if (isAboutSizes(error)) setSizesError(reasonOf(error) ?? NOTICES.updateFailed);
        // Show the stock as it is now, so the next save is checked against that.
        const fresh = await queryClient.fetchQuery(trpc.admin.products.list.queryOptions()).catch(() => null);
        const now = fresh?.find((p) => p.id === product.id);
        if (now) setStock((state) => refreshedFrom(state, now));
        if (now && now.inventory !== inventoryWas.current) {
          inventoryWas.current = now.inventory;
          form.update({ name: fields.inventory.name, value: String(now.inventory) });
        }
        return;
      }
      notify.success(NOTICES.updated, input.name);
      await queryClient.invalidateQueries({ queryKey: listKey });
      form.reset();
      // Back to the list, at the top (a plain navigation scrolls there), where the list puts the
      // keyboard focus on this product's Edit link (the form, and the focus in it, are gone).
      navigate("?", { state: { saved: product.id } });
      return;
    }
    let created: AdminProduct;
    try {
      const { inventoryWas: _was, ...fields } = input as typeof input & { inventoryWas?: number };
      created = await create.mutateAsync({ ...fields, inventory: summed ?? formValue.inventory });
    } catch (error) {
      notify.error(NOTICES.createFailed, reasonOf(error));
      if (isAboutSizes(error)) setSizesError(reasonOf(error) ?? NOTICES.createFailed);
      return;
    }
    notify.success(NOTICES.created, created.name);
    // In the list at once, so the editor finds it when it switches over.
    queryClient.setQueryData(listKey, (all) => [created, ...(all ?? []).filter((p) => p.id !== created.id)]);
    void queryClient.invalidateQueries({ queryKey: listKey });
    if (queue.items.some((item) => item.status !== "done")) {
      queue.handOver(created.id);
      navigate(`?tab=form&id=${created.id}`, { preventScrollReset: true });
      void queue.uploadAll(created.id);
    } else {
      form.reset();
      navigate("?");
    }
  }

  const num = (field: typeof fields.price, step: string, min: string, extra?: React.InputHTMLAttributes<HTMLInputElement>) => (
    <Input {...bare(getInputProps(field, { type: "number" }))} key={field.key} step={step} min={min} inputMode="decimal" {...extra} />
  );

  return (
    <form {...getFormProps(form)} className="space-y-6" aria-labelledby="product-form-heading">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <div className="space-y-6">
          <Section title="Details">
            <Field field={fields.name} label="Name">
              <Input {...bare(getInputProps(fields.name, { type: "text" }))} key={fields.name.key} maxLength={120} autoComplete="off" />
            </Field>
            <Field field={fields.description} label="Description" hint="At least 10 characters. Shown on the product page.">
              <textarea {...bare(getTextareaProps(fields.description))} key={fields.description.key} rows={5} className={textareaClass} />
            </Field>
          </Section>
          <Section title="Price and stock" description="Prices in US dollars. The discount shows as the sale price and “-N% OFF”.">
            <div className="grid grid-cols-2 gap-x-4 gap-y-2">
              <Field field={fields.price} label="Price ($)">
                {num(fields.price, "0.01", "0.01", { placeholder: "0.00" })}
              </Field>
              <Field
                field={fields.inventory}
                label="Inventory"
                hint={
                  summed === null
                    ? "0 shows SOLD OUT."
                    : `The sum of the ${stock.rows.length > 0 ? "sizes" : "colours"}: set it under Sizes.`
                }
              >
                {summed === null
                  ? num(fields.inventory, "1", "0", { inputMode: "numeric" })
                  : [
                      // The field still posts (the form's schema wants a number), the save sends the sizes instead.
                      <input key="posted" type="hidden" name={fields.inventory.name} value={String(summed)} />,
                      <Input
                        key="shown"
                        id={fields.inventory.id}
                        value={String(summed)}
                        readOnly
                        aria-describedby={fields.inventory.descriptionId}
                        className="text-muted-foreground tabular-nums"
                        data-testid="inventory-sum"
                      />,
                    ]}
              </Field>
              <Field field={fields.discountPercent} label="Discount (%)">
                {num(fields.discountPercent, "1", "0", { max: "100", inputMode: "numeric" })}
              </Field>
              <Field
                field={fields.maxPerCustomer}
                label="Limit per customer"
                hint="Empty: no limit. Counts every order of one e-mail or address."
              >
                {num(fields.maxPerCustomer, "1", "1", { inputMode: "numeric", placeholder: "No limit" })}
              </Field>
              <Field field={fields.promoCode} label="Promo code" hint="Optional. Shown with the discount.">
                <Input
                  {...bare(getInputProps(fields.promoCode, { type: "text" }))}
                  key={fields.promoCode.key}
                  maxLength={40}
                  autoComplete="off"
                />
              </Field>
            </div>
          </Section>
          <Section title="Colours" description="Presets come with their swatch; any other name is drawn in neutral grey.">
            <ColorField
              field={fields.availableColors}
              name={fields.availableColors.name}
              formId={form.id}
              colors={colors}
              onChange={setColors}
            />
          </Section>
          <Section title="Sizes" description="In the order the store shows them. No sizes: the product is sold as One Size.">
            <SizesEditor
              state={stock}
              onChange={(next) => {
                setStock(next);
                setSizesError(null);
              }}
              colors={colors}
              error={sizesError}
              oneSizeStock={Number(fields.inventory.value ?? product?.inventory ?? 0) || 0}
            />
            <Field
              field={fields.sizeGuide}
              label="Size guide"
              hint="Optional, up to 4,000 characters. Shown in a dialog beside the size picker. For a table, split each line's cells with | (first line: the headings)."
            >
              <textarea {...bare(getTextareaProps(fields.sizeGuide))} key={fields.sizeGuide.key} rows={5} className={textareaClass} />
            </Field>
          </Section>
          <Section title="Shipping" description="Used for shipping rates and labels.">
            <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
              <Field field={fields.weight} label="Weight (lb)">
                {num(fields.weight, "0.1", "0.1")}
              </Field>
              <Field field={fields.length} label="Length (in)">
                {num(fields.length, "0.1", "1")}
              </Field>
              <Field field={fields.width} label="Width (in)">
                {num(fields.width, "0.1", "1")}
              </Field>
              <Field field={fields.height} label="Height (in)">
                {num(fields.height, "0.1", "1")}
              </Field>
            </div>
          </Section>
        </div>
        <div className="space-y-6">
          <Section title="Availability">
            <Switch
              label="Visible in the store"
              description="Hidden products are kept but nobody sees them."
              inputProps={getInputProps(fields.isVisible, { type: "checkbox" })}
            />
            <Switch
              label="Coming soon"
              description="Shown with a COMING SOON badge; it cannot be bought yet."
              inputProps={{
                ...getInputProps(fields.isComingSoon, { type: "checkbox" }),
                onChange: (e) => setComingSoon(e.currentTarget.checked),
              }}
            />
            {comingSoon ? (
              <Field field={fields.releaseDate} label="Expected release date" hint="Optional. Shown as “Expected …”.">
                <Input {...bare(getInputProps(fields.releaseDate, { type: "date" }))} key={fields.releaseDate.key} />
              </Field>
            ) : null}
            <Switch
              label="Countdown restricted"
              description="Unseen in the store until its release time."
              inputProps={{
                ...getInputProps(fields.isCountdownRestricted, { type: "checkbox" }),
                onChange: (e) => setRestricted(e.currentTarget.checked),
              }}
            />
            {restricted ? (
              <fieldset className="rounded-md border border-border p-4">
                <legend className="px-1 text-sm font-medium">Release ({STORE_TIME_ZONE})</legend>
                <div className="grid grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)] gap-3">
                  <Field field={fields.countdownDate} label="Date">
                    <Input {...bare(getInputProps(fields.countdownDate, { type: "date" }))} key={fields.countdownDate.key} />
                  </Field>
                  <Field field={fields.countdownTime} label="Time (HH:MM)">
                    <Input
                      {...bare(getInputProps(fields.countdownTime, { type: "text" }))}
                      key={fields.countdownTime.key}
                      placeholder="20:00"
                      inputMode="numeric"
                      maxLength={5}
                      pattern="[0-2][0-9]:[0-5][0-9]"
                    />
                  </Field>
                </div>
                <p className="mt-1 text-xs text-muted-foreground">
                  Eastern Time, 24-hour clock. Without a date it follows the store's launch countdown.
                </p>
              </fieldset>
            ) : null}
          </Section>
          <Section title="Store image">
            <StoreImageNote galleryImages={(product?.imageCount ?? 0) + queue.items.filter((item) => item.status !== "failed").length} />
            <ProductImageUpload
              imageUrl={String(fields.imageUrl.value ?? "")}
              onUploaded={({ imageUrl, clearImagePath }) => {
                form.update({ name: fields.imageUrl.name, value: imageUrl });
                if (clearImagePath) form.update({ name: fields.imagePath.name, value: "" });
              }}
            />
            <Field field={fields.imageUrl} label="Image URL">
              <Input
                {...bare(getInputProps(fields.imageUrl, { type: "text" }))}
                key={fields.imageUrl.key}
                inputMode="url"
                spellCheck={false}
                placeholder="https://… or /uploads/…"
              />
            </Field>
            <Field field={fields.imagePath} label="Image path" hint="Used when there is no URL. Uploads fill this in themselves.">
              <Input
                {...bare(getInputProps(fields.imagePath, { type: "text" }))}
                key={fields.imagePath.key}
                spellCheck={false}
                placeholder="products/…"
              />
            </Field>
          </Section>
          <Section title="Images" description="The gallery on the product page. JPG, PNG or GIF up to 5MB each.">
            <ImageManager productId={product?.id ?? null} queue={queue} />
          </Section>
        </div>
      </div>
      <div
        data-sticky-actions
        className="sticky bottom-0 z-10 -mx-4 flex items-center justify-between gap-2 border-t border-border bg-background/90 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-lg sm:border sm:px-5"
      >
        {product && onDelete ? (
          <Button
            type="button"
            variant="ghost"
            size={null}
            className="h-11 px-3 text-sm whitespace-nowrap text-red-300 hover:bg-destructive/15 hover:text-red-200"
            onClick={onDelete}
            aria-label={`Delete ${product.name}`}
          >
            <Trash2 aria-hidden /> <span className="max-sm:sr-only">Delete</span>
          </Button>
        ) : (
          <span />
        )}
        <div className="flex gap-2">
          <Button
            type="button"
            variant="outline"
            className="max-sm:px-4"
            onClick={() => navigate("?", { preventScrollReset: true })}
            disabled={saving}
          >
            Cancel
          </Button>
          {/* Not `disabled` while saving: a disabled button drops the keyboard focus to the page's body. */}
          <Button type="submit" className="max-sm:px-4" aria-disabled={saving || undefined}>
            {saving ? "Saving..." : product ? "Update Product" : "Create Product"}
          </Button>
        </div>
      </div>
    </form>
  );
}

/** A refusal about the sizes, the grid or the stock mode (the server names the field): shown beside the editor too. */
function isAboutSizes(error: unknown): boolean {
  const fieldErrors = (error as { data?: { fieldErrors?: Record<string, unknown> } } | null)?.data?.fieldErrors ?? {};
  if (["sizes", "variants", "stockPerColor"].some((key) => key in fieldErrors)) return true;
  // A 400 from the procedure's own input check names no field: its message does.
  return /\b(size|sizes|variants?|stock per colour)\b/i.test(reasonOf(error) ?? "") && !("inventory" in fieldErrors);
}

/**
 * Which picture the store shows, said plainly where the admin sets one: the gallery's primary image
 * replaces the store image as soon as there is one (the server keeps them in step), so an upload
 * here only counts for a product without gallery images.
 */
function StoreImageNote({ galleryImages }: { galleryImages: number }) {
  return (
    <p
      role="note"
      data-testid="store-image-note"
      className="flex gap-2.5 rounded-md border border-border bg-background/60 p-3 text-sm leading-relaxed"
    >
      <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      {galleryImages > 0 ? (
        <span>
          The store shows the <strong>primary image of the gallery</strong> (Images, below), not a picture set here. To change it, make
          another gallery image primary.
        </span>
      ) : (
        <span>
          The store shows <strong>this picture</strong> while the product has no gallery images. The first image added to the gallery
          (Images, below) then replaces it.
        </span>
      )}
    </p>
  );
}
