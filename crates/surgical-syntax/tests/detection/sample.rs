use std::collections::HashMap;

/// A small inventory.
pub struct Inventory {
    items: HashMap<String, u32>,
    limit: u32,
}

impl Inventory {
    pub fn new(limit: u32) -> Inventory {
        Inventory { items: HashMap::new(), limit }
    }

    pub fn add(&mut self, name: &str, count: u32) -> Result<u32, String> {
        let held = self.items.entry(name.to_string()).or_insert(0);
        if *held + count > self.limit {
            return Err(format!("{name}: over the limit of {}", self.limit));
        }
        *held += count;
        Ok(*held)
    }

    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.items.keys().map(|k| k.as_str()).collect();
        names.sort();
        names
    }
}

fn main() {
    let mut stock = Inventory::new(10);
    let added = stock.add("apples", 3);
    println!("{:?} {:?}", added, stock.names());
    let sizes = [1, 2, 3];
    for size in sizes.iter() {
        let label = "size";
        println!("{label} {size}");
    }
}
