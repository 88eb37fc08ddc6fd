# Balanced parentheses between a left end marker B and the blank E: accepts or rejects. Runs right
# to the first ')', crosses it out (X) and goes back to cross out the nearest '(' left of it
# (reject on reaching B first); at the right end, runs back to B, rejecting on any '(' left over.
# Moves are L or R only, so jonrbates/turing's module runs it too (nnt bench tm --peer-turing).
states: start scan match check
symbols: E B ( ) X
input: B ( ( ) ( ) ) ( )
start B -> B R scan
scan ( -> ( R scan
scan X -> X R scan
scan ) -> X L match
scan E -> E L check
match X -> X L match
match ( -> X R scan
match B -> B R reject
check X -> X L check
check ( -> ( R reject
check B -> B R accept
