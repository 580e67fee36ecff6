//! Seed `003_…`'s story: a dropped `orderRef` caught at send, at receive, and explained
//! (`examples::story`).
//!
//! Run with `cargo run -p examples --bin dropped-order-ref`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", examples::story::dropped_order_ref()?);
    Ok(())
}
