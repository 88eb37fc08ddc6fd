// 8-bit unsigned multiplier: p = a * b (yosys synthesises the multiplier; nnt circuit compiles it).
module mult8 (
    input  [7:0]  a,
    input  [7:0]  b,
    output [15:0] p
);
  assign p = a * b;
endmodule
