//! A model's refund request refused for a missing `orderRef`, the correction sent back, the
//! second attempt accepted through the specialist's inbox, and the session's journey showing
//! the two attempts as an explicit retry (`examples::model_retry`). Exits non-zero when a
//! catch fails.
//!
//! Run with `cargo run -p examples --bin model-retry`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", examples::model_retry::model_retry()?);
    Ok(())
}
