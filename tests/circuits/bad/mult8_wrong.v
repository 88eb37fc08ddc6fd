// mult8 with one product bit flipped: check_verilog must reject its net (exit 1).
module mult8 (
    input  [7:0]  a,
    input  [7:0]  b,
    output [15:0] p
);
  assign p = (a * b) ^ 16'h0100;
endmodule
