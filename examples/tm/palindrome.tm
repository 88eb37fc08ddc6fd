# Palindromes over {a, b}: accepts (halt) or rejects, 3 symbols. Erases the first letter, runs to
# the right end, compares and erases the last letter, runs back, repeats.
states: start seekA seekB checkA checkB back
symbols: _ a b
input: a b b a b b a
start a -> _ R seekA
start b -> _ R seekB
start _ -> _ S accept
seekA a -> a R seekA
seekA b -> b R seekA
seekA _ -> _ L checkA
seekB a -> a R seekB
seekB b -> b R seekB
seekB _ -> _ L checkB
checkA a -> _ L back
checkA b -> b S reject
checkA _ -> _ S accept
checkB b -> _ L back
checkB a -> a S reject
checkB _ -> _ S accept
back a -> a L back
back b -> b L back
back _ -> _ R start
