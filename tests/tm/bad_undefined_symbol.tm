# A transition reading a symbol that is not declared: exit 2 with line and column.
states: s
symbols: _ a b
input: a b
s a -> b R s
s b -> c R s
