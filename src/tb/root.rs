//! Root move ranking (to be written).
