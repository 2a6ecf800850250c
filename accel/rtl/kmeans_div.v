// kmeans_div.v - one sequential restoring divider for a centroid coordinate.
// load: latch dividend (a cluster's coordinate sum) and divisor (its count).
// Then QBITS steps, one quotient bit per cycle, MSB first. The quotient of a
// mean of 9-bit values fits in 9 bits, so 1 + 9 = 10 cycles per division.
module kmeans_div #(parameter SW = 24, parameter CW = 16, parameter QBITS = 9) (
    input  wire          clk,
    input  wire          load,
    input  wire [SW-1:0] dividend,
    input  wire [CW-1:0] divisor,
    output reg  [QBITS-1:0] q
);
  reg [SW-1:0] rem;
  reg [CW-1:0] dv;
  reg [3:0] bitn;
  reg active;
  wire [SW+QBITS-1:0] trial = {{(SW+QBITS-CW){1'b0}}, dv} << bitn;
  always @(posedge clk) begin
    if (load) begin
      rem <= dividend;
      dv <= divisor;
      q <= {QBITS{1'b0}};
      bitn <= QBITS[3:0] - 4'd1;
      active <= 1'b1;
    end else if (active) begin
      if ({{QBITS{1'b0}}, rem} >= trial) begin
        rem <= rem - trial[SW-1:0];
        q[bitn] <= 1'b1;
      end
      if (bitn == 4'd0) active <= 1'b0;
      else bitn <= bitn - 4'd1;
    end
  end
endmodule
