//! In-search probing (to be written).
