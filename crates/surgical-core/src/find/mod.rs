//! Finding a needle.

pub(crate) mod closest;
pub(crate) mod elision;
pub(crate) mod forgiven;
pub(crate) mod haystack;
mod ladder;
pub(crate) mod line_tiers;
pub(crate) mod misremembered;
pub(crate) mod mistakes;
pub(crate) mod near_miss;
pub(crate) mod needle;
pub(crate) mod rewrites;
pub(crate) mod scope;
pub(crate) mod search;
pub(crate) mod text_tiers;
pub(crate) mod tier;
