//! CuTe layout algebra (spec §C). One module per construct.
