// sequential: a 4-bit counter keeps flip-flops after synthesis and must be refused (exit 2)
module counter (input clk, output reg [3:0] q);
  always @(posedge clk) q <= q + 4'd1;
endmodule
