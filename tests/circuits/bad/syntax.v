module broken (input a, output y);
  assign y = a &;
endmodule
