fn a() {}
fn b() -> u8 { 0 }
