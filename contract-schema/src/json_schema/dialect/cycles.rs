//! Which named types lie on a cycle of references, in the receiver view: a dialect that
//! refuses recursion, or accepts it only in places, is told so where a `$ref` closes one.

use std::collections::{BTreeMap, HashMap};

use crate::model::{Body, Schema, StructDef, VariantDefKind};

/// The named types on a cycle, each with the id of its strongly connected component (two
/// types with one id reach each other).
pub(super) fn cycles(schema: &Schema) -> HashMap<String, usize> {
    let names: Vec<&String> = schema.types.keys().collect();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|name| {
            let mut out = Vec::new();
            if let Some(def) = schema.types.get(*name) {
                body_refs(&def.body, &mut |target| {
                    if let Some(&j) = index.get(target) {
                        out.push(j);
                    }
                });
            }
            out
        })
        .collect();
    let components = tarjan(&edges);
    let mut size: HashMap<usize, usize> = HashMap::new();
    for c in &components {
        *size.entry(*c).or_default() += 1;
    }
    let mut out = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        let c = components[i];
        let self_loop = edges[i].contains(&i);
        if self_loop || size.get(&c).copied().unwrap_or(0) > 1 {
            out.insert((*name).clone(), c);
        }
    }
    out
}

/// Every named type a body refers to, in the receiver view.
fn body_refs(body: &Body, f: &mut dyn FnMut(&str)) {
    match body {
        Body::Struct(s) => struct_refs(s, f),
        Body::Enum(e) => {
            for v in &e.variants {
                match &v.kind {
                    VariantDefKind::Unit => {}
                    VariantDefKind::Newtype(t) => t.for_each_name(f),
                    VariantDefKind::Tuple(ts) => ts.iter().for_each(|t| t.for_each_name(f)),
                    VariantDefKind::Struct(s) => struct_refs(s, f),
                }
            }
        }
        Body::Newtype(t) => t.for_each_name(f),
        Body::Views { receiver, .. } => receiver.for_each_name(f),
    }
}

/// Every named type a struct's fields refer to, in the receiver view.
fn struct_refs(s: &StructDef, f: &mut dyn FnMut(&str)) {
    for field in s.fields.iter().filter(|f| f.receiver.is_some()) {
        field.ty.for_each_name(f);
    }
    if let Some(extra) = &s.extra {
        extra.for_each_name(f);
    }
    for flat in &s.flattened {
        flat.ty.for_each_name(f);
    }
}

/// The strongly connected component of every node (Tarjan's algorithm, iterative, so that a
/// long chain of types needs no deep stack).
fn tarjan(edges: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut components = 0;
    for start in 0..n {
        if index[start] != UNSEEN {
            continue;
        }
        // (node, next edge to follow)
        let mut work = vec![(start, 0_usize)];
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if let Some(&w) = edges[v].get(*e) {
                *e += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::tarjan;

    #[test]
    fn components_join_nodes_that_reach_each_other() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 3, 4 alone.
        let c = tarjan(&[vec![1], vec![2], vec![0, 3], vec![3], vec![]]);
        assert_eq!(c[0], c[1]);
        assert_eq!(c[1], c[2]);
        assert_ne!(c[2], c[3]);
        assert_ne!(c[3], c[4]);
    }
}
