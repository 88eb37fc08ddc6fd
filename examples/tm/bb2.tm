# BB(2) champion, busy-beaver standard notation: halts after 6 steps leaving 4 ones.
1RB1LB_1LA1RZ
