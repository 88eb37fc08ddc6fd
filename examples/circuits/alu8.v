// 8-bit ALU. op: 0 add (c = carry out), 1 subtract (c = borrow), 2 and, 3 xor (c = 0);
// z = 1 when the result y is zero.
module alu8 (
    input      [7:0] a,
    input      [7:0] b,
    input      [1:0] op,
    output reg [7:0] y,
    output reg       c,
    output           z
);
  always @* begin
    case (op)
      2'd0: {c, y} = {1'b0, a} + {1'b0, b};
      2'd1: {c, y} = {1'b0, a} - {1'b0, b};
      2'd2: {c, y} = {1'b0, a & b};
      default: {c, y} = {1'b0, a ^ b};
    endcase
  end
  assign z = y == 8'd0;
endmodule
