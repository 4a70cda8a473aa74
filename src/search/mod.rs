//! The search: iterative deepening principal-variation alpha-beta with a shared transposition
//! table, driven through a small interface (limits in, progress reports and a result out, a
//! shared control block to stop it).

pub(crate) mod ablation;
pub mod bench;
pub mod control;
pub mod correction;
pub mod history;
pub mod limits;
pub mod params;
pub mod picker;
pub mod score;
pub mod searcher;
pub mod see;
mod table_memory;
pub mod tablebases;
pub mod time;
pub mod tt;
mod watchdog;
pub mod wdl;
mod worker;
mod zeroed;

pub use control::SearchControl;
pub use limits::{Clock, SearchLimits};
pub use searcher::{
    Bound, RootMoveReport, SearchReport, SearchResult, SearchUpdate, Searcher, TableAllocError,
};
