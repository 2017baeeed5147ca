/** The admin product area's notices, word for word from docs/spec.md §8. */
export const NOTICES = {
  created: "Product Created",
  createFailed: "Failed to Create Product",
  updated: "Product Updated",
  updateFailed: "Failed to Update Product",
  deleted: "Product Deleted",
  deleteFailed: "Failed to Delete Product",
  visibilityFailed: "Failed to Update Visibility",
  imageUploaded: "Image Uploaded",
  imageUploadFailed: "Failed to Upload Image",
  imageAdded: "Image Added",
  imageAddFailed: "Failed to Add Image",
  imageUpdated: "Image Updated",
  imageUpdateFailed: "Failed to Update Image",
  imageDeleted: "Image Deleted",
  imageDeleteFailed: "Failed to Delete Image",
  batchComplete: "Batch Upload Complete",
  batchFailed: "Batch Upload Failed",
  batchFailedDescription: "Some images may not have been uploaded",
  noFiles: "No Files Selected",
  noFile: "No File Selected",
  error: "Error",
  needProduct: "You must create or select a product before adding images",
  imagesFetchFailed: "Failed to fetch product images",
} as const;

/** A readable reason from whatever a failed call threw. */
export function reasonOf(error: unknown): string | undefined {
  return error instanceof Error && error.message ? error.message : undefined;
}
