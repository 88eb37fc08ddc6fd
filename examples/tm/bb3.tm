# BB(3) step champion: halts after 21 steps leaving 5 ones.
1RB1RZ_1LB0RC_1LC1LA
