//! Ascend layouts: element types and C0, frame patterns, recognition, tile layouts (spec §A, §B.6).
