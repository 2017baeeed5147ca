import type { SelectQueryBuilder } from "kysely";
import type { DB } from "#db/schema";

/**
 * The order a product's pictures are shown in, to shoppers and the admin alike: by display
 * order, the primary first among equals, then by id so equal rows never swap between reads.
 */
export function inDisplayOrder<O>(query: SelectQueryBuilder<DB, "productImages", O>): SelectQueryBuilder<DB, "productImages", O> {
  return query.orderBy("displayOrder", "asc").orderBy("isPrimary", "desc").orderBy("id", "asc");
}
