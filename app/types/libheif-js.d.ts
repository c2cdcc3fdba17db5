// The part of libheif-js (libheif compiled to WebAssembly, with libheif's own JavaScript bindings)
// that app/content/heic.server.ts uses. The package types these bindings only loosely (`any`).
declare module "libheif-js/wasm-bundle.js" {
  type Context = { readonly heifContext: unique symbol };
  type Handle = { readonly heifImageHandle: unique symbol };
  type Image = { readonly heifImage: unique symbol };
  /** An enum value of the bindings: compared by identity with the module's own constants. */
  type ErrorCode = { readonly heifErrorCode: unique symbol };
  export type HeifError = { code: ErrorCode; message: string };
  /** Pixels decoded into the WebAssembly memory: copy them before the image is released. */
  type Decoded = { image: Image; channels: Array<{ width: number; height: number; stride: number; data: Uint8Array }> };

  const libheif: {
    heif_context_alloc(): Context;
    heif_context_free(context: Context): void;
    heif_context_read_from_memory(context: Context, bytes: Uint8Array): HeifError;
    /** The primary image's handle, or an error (which has a `code`). */
    heif_js_context_get_primary_image_handle(context: Context): Handle | HeifError;
    /** Width and height as shown: after the image's rotation and mirroring. */
    heif_image_handle_get_width(handle: Handle): number;
    heif_image_handle_get_height(handle: Handle): number;
    heif_image_handle_has_alpha_channel(handle: Handle): number;
    heif_image_handle_release(handle: Handle): void;
    /** Decodes with libheif's default options, which apply the image's transformations. */
    heif_js_decode_image2(handle: Handle, colorspace: number, chroma: number): Decoded | HeifError;
    heif_image_release(image: Image): void;
    heif_error_code: { heif_error_Ok: ErrorCode };
    heif_colorspace: { heif_colorspace_RGB: number };
    heif_chroma: { heif_chroma_interleaved_RGB: number; heif_chroma_interleaved_RGBA: number };
  };
  export default libheif;
}
