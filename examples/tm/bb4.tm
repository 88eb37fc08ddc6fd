# BB(4) champion (Brady): halts after 107 steps leaving 13 ones.
1RB1LB_1LA0LC_1RZ1LD_1RD0RA
