// 16-bit unsigned comparator: exactly one of lt, eq, gt is 1.
module cmp16 (
    input  [15:0] a,
    input  [15:0] b,
    output        lt,
    output        eq,
    output        gt
);
  assign lt = a < b;
  assign eq = a == b;
  assign gt = a > b;
endmodule
