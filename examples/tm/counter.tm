# A binary counter after a left end marker: increments the number on the tape until it wraps
# to all zeros, then halts. With 11 bits it runs 10^4 steps and beyond (used for the T = 10^4 check).
states: right inc
symbols: _ 0 1 #
input: # 0 0 0 0 0 0 0 0 0 0 0
right # -> # R right
right 0 -> 0 R right
right 1 -> 1 R right
right _ -> _ L inc
inc # -> # R halt
inc 1 -> 0 L inc
inc 0 -> 1 R right
