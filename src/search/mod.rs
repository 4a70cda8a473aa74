//! The search: iterative deepening alpha-beta over the board, driven through a small
//! interface (limits in, progress reports and a result out, a shared control block to stop it).

pub mod control;
pub mod limits;
pub mod score;
pub mod searcher;
pub mod time;

pub use control::SearchControl;
pub use limits::{Clock, SearchLimits};
pub use searcher::{Bound, SearchReport, SearchResult, Searcher};
