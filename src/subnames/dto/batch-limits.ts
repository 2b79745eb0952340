/** The most bodies one POST /subnames/batch carries; its own file so the import command can read it without the DTOs. */
export const MAX_BATCH_ITEMS = 1000;
