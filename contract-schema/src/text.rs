//! The canonical schema text (to be written).
