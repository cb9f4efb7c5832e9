// A misspelled op in custom form: MLIR says "custom op ... is unknown"; layout-opt adds the note.
func.func @f(%x: memref<4xf32>) {
  ascendc.pipe_barier
  return
}
