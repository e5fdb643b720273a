//! Token counts with tiktoken-rs. Loading the tokenizer costs hundreds of
//! milliseconds, so nothing on the hook path calls this unless it must.

use std::sync::OnceLock;
use tiktoken_rs::CoreBPE;

fn bpe() -> Option<&'static CoreBPE> {
    static BPE: OnceLock<Option<CoreBPE>> = OnceLock::new();
    BPE.get_or_init(|| {
        if crate::diag::verbose() {
            crate::printer::err("cuecard: loading the tokenizer (o200k_base)");
        }
        tiktoken_rs::o200k_base().ok()
    })
    .as_ref()
}

/// The number of tokens in `text` (o200k_base), or a bytes/4 estimate if the
/// tokenizer cannot be loaded.
pub fn count(text: &str) -> usize {
    match bpe() {
        Some(b) => b.encode_ordinary(text).len(),
        None => text.len().div_ceil(4),
    }
}
