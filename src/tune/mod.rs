//! Tuning: find the best setting of a strategy's profile parameters per
//! rule variant, with a stated confidence, in a fraction of a sweep's
//! games.
//!
//! - [`space`]: the parameters and their grids or ranges, checked against
//!   the strategy's parameter table;
//! - [`objective`]: what a unit measures and the paired comparison of two
//!   settings over the same deals;
//! - [`evaluate`]: the seam that plays settings on a block of deals;
//! - [`racing`]: racing on duplicate deals for a discrete grid;
//! - [`spsa`]: SPSA for several integer or continuous parameters.

pub mod evaluate;
pub mod objective;
pub mod racing;
pub mod space;
pub mod spsa;

pub use evaluate::{Evaluate, Matches};
pub use objective::Unit;
pub use racing::Race;
pub use space::{Dim, Domain, Setting, Space};
pub use spsa::{Gains, Spsa};
