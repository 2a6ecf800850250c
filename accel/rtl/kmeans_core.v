// kmeans_core.v - the K-Means accelerator datapath (see docs/models/accel.md).
//
// Bit-exact with firmware/ftl/hotness.c kmeans2d. Microarchitecture:
//  - point SRAM (x, y: 9 bits) and label SRAM (4 bits; 8 = none), written by
//    the load port (the DMA engine outside this module);
//  - ASSIGN: LANES points per cycle, each lane with 8 distance units (the
//    first K enabled), a 3-stage pipeline: SRAM read | distances + argmin
//    (ties to the lowest index) | label write + per-cluster accumulation;
//  - DRAIN: 2 cycles to empty the pipeline;
//  - DIVIDE: the 2K floor divisions (x and y of each cluster) time-multiplexed
//    over NDIV sequential dividers, ceil(2K/NDIV) rounds of 1 + 9 cycles;
//    a cluster with count 0 keeps its centroid;
//  - COMMIT: 1 cycle: last results, iteration count, convergence test.
// Cycles from start to done: 1 + iters * (ceil(N/LANES) + 2 + ceil(2K/NDIV)*10 + 1).
module kmeans_core #(
    parameter LANES = 1,
    parameter NDIV = 2,
    parameter SRAM_POINTS = 25600,
    parameter AW = 15,  // address bits: 2**AW >= SRAM_POINTS
    parameter SW = 24   // sum bits: 2**SW > 511 * SRAM_POINTS
) (
    input  wire          clk,
    input  wire          rst,
    // load port (DMA in)
    input  wire          ld_we,
    input  wire [AW-1:0] ld_addr,
    input  wire [8:0]    ld_x,
    input  wire [8:0]    ld_y,
    // control
    input  wire          start,
    input  wire [AW:0]   n,
    input  wire [3:0]    k,
    input  wire [31:0]   max_iter,
    output wire          busy,
    output reg           done,
    output reg  [31:0]   iters,
    output reg  [31:0]   cycles,
    // readout (DMA out and centroid registers)
    input  wire [AW-1:0] rd_addr,
    output wire [3:0]    rd_label,
    input  wire [2:0]    cent_sel,
    output wire [8:0]    cent_x,
    output wire [8:0]    cent_y
);
  localparam CW = AW + 1;
  localparam QBITS = 9;
  localparam DIV_LAT = 1 + QBITS;
  localparam S_IDLE = 3'd0, S_ASSIGN = 3'd1, S_DRAIN = 3'd2, S_DIVIDE = 3'd3, S_COMMIT = 3'd4;

  reg [8:0] pmx [0:SRAM_POINTS-1];
  reg [8:0] pmy [0:SRAM_POINTS-1];
  reg [3:0] lmem [0:SRAM_POINTS-1];

  reg [2:0] state;
  reg [8:0] cx [0:7];
  reg [8:0] cy [0:7];
  reg [SW-1:0] sx [0:7];
  reg [SW-1:0] sy [0:7];
  reg [CW-1:0] cnt [0:7];
  reg changed;
  reg [AW:0] row;       // next row (group of LANES points) to issue
  reg [AW:0] rows;      // ceil(n / LANES)
  reg [3:0] kk;
  reg [AW:0] nn;
  reg [31:0] maxit;
  reg dcnt;             // drain counter
  reg [4:0] round;      // divider round
  reg [4:0] rounds;     // ceil(2K / NDIV)
  reg [3:0] dc;         // cycle within a round

  assign busy = state != S_IDLE;
  assign rd_label = lmem[rd_addr];
  assign cent_x = cx[cent_sel];
  assign cent_y = cy[cent_sel];

  // width casts in Verilog-2005 (the low bits of an integer expression)
  /* verilator lint_off UNUSEDSIGNAL */
  function [AW-1:0] to_aw(input integer v); to_aw = v[AW-1:0]; endfunction
  function [5:0] to6(input integer v); to6 = v[5:0]; endfunction
  function [4:0] to5(input integer v); to5 = v[4:0]; endfunction
  function [3:0] to4(input integer v); to4 = v[3:0]; endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  function [8:0] init_c(input [3:0] kf, input [2:0] cf);
    begin
      case ({kf, cf})
      {4'd1, 3'd0}: init_c = 9'd0;
      {4'd1, 3'd1}: init_c = 9'd0;
      {4'd1, 3'd2}: init_c = 9'd0;
      {4'd1, 3'd3}: init_c = 9'd0;
      {4'd1, 3'd4}: init_c = 9'd0;
      {4'd1, 3'd5}: init_c = 9'd0;
      {4'd1, 3'd6}: init_c = 9'd0;
      {4'd1, 3'd7}: init_c = 9'd0;
      {4'd2, 3'd0}: init_c = 9'd0;
      {4'd2, 3'd1}: init_c = 9'd511;
      {4'd2, 3'd2}: init_c = 9'd0;
      {4'd2, 3'd3}: init_c = 9'd0;
      {4'd2, 3'd4}: init_c = 9'd0;
      {4'd2, 3'd5}: init_c = 9'd0;
      {4'd2, 3'd6}: init_c = 9'd0;
      {4'd2, 3'd7}: init_c = 9'd0;
      {4'd3, 3'd0}: init_c = 9'd0;
      {4'd3, 3'd1}: init_c = 9'd255;
      {4'd3, 3'd2}: init_c = 9'd511;
      {4'd3, 3'd3}: init_c = 9'd0;
      {4'd3, 3'd4}: init_c = 9'd0;
      {4'd3, 3'd5}: init_c = 9'd0;
      {4'd3, 3'd6}: init_c = 9'd0;
      {4'd3, 3'd7}: init_c = 9'd0;
      {4'd4, 3'd0}: init_c = 9'd0;
      {4'd4, 3'd1}: init_c = 9'd170;
      {4'd4, 3'd2}: init_c = 9'd340;
      {4'd4, 3'd3}: init_c = 9'd511;
      {4'd4, 3'd4}: init_c = 9'd0;
      {4'd4, 3'd5}: init_c = 9'd0;
      {4'd4, 3'd6}: init_c = 9'd0;
      {4'd4, 3'd7}: init_c = 9'd0;
      {4'd5, 3'd0}: init_c = 9'd0;
      {4'd5, 3'd1}: init_c = 9'd127;
      {4'd5, 3'd2}: init_c = 9'd255;
      {4'd5, 3'd3}: init_c = 9'd383;
      {4'd5, 3'd4}: init_c = 9'd511;
      {4'd5, 3'd5}: init_c = 9'd0;
      {4'd5, 3'd6}: init_c = 9'd0;
      {4'd5, 3'd7}: init_c = 9'd0;
      {4'd6, 3'd0}: init_c = 9'd0;
      {4'd6, 3'd1}: init_c = 9'd102;
      {4'd6, 3'd2}: init_c = 9'd204;
      {4'd6, 3'd3}: init_c = 9'd306;
      {4'd6, 3'd4}: init_c = 9'd408;
      {4'd6, 3'd5}: init_c = 9'd511;
      {4'd6, 3'd6}: init_c = 9'd0;
      {4'd6, 3'd7}: init_c = 9'd0;
      {4'd7, 3'd0}: init_c = 9'd0;
      {4'd7, 3'd1}: init_c = 9'd85;
      {4'd7, 3'd2}: init_c = 9'd170;
      {4'd7, 3'd3}: init_c = 9'd255;
      {4'd7, 3'd4}: init_c = 9'd340;
      {4'd7, 3'd5}: init_c = 9'd425;
      {4'd7, 3'd6}: init_c = 9'd511;
      {4'd7, 3'd7}: init_c = 9'd0;
      {4'd8, 3'd0}: init_c = 9'd0;
      {4'd8, 3'd1}: init_c = 9'd73;
      {4'd8, 3'd2}: init_c = 9'd146;
      {4'd8, 3'd3}: init_c = 9'd219;
      {4'd8, 3'd4}: init_c = 9'd292;
      {4'd8, 3'd5}: init_c = 9'd365;
      {4'd8, 3'd6}: init_c = 9'd438;
      {4'd8, 3'd7}: init_c = 9'd511;
        default: init_c = 9'd0;
      endcase
    end
  endfunction

  // ---- pipeline stage 1 registers (SRAM read) ----
  reg [8:0] s1x [0:LANES-1];
  reg [8:0] s1y [0:LANES-1];
  reg [3:0] s1old [0:LANES-1];
  reg [LANES-1:0] s1v;
  reg [AW:0] s1row;
  // ---- stage 2 registers (argmin) ----
  reg [8:0] s2x [0:LANES-1];
  reg [8:0] s2y [0:LANES-1];
  reg [3:0] s2old [0:LANES-1];
  reg [2:0] s2best [0:LANES-1];
  reg [LANES-1:0] s2v;
  reg [AW:0] s2row;

  // distance units: combinational argmin per lane
  reg [2:0] best [0:LANES-1];
  reg [19:0] bestd;
  reg signed [19:0] dxs, dys;
  reg [19:0] d;
  integer j, c;
  always @* begin
    for (j = 0; j < LANES; j = j + 1) begin
      best[j] = 3'd0;
      bestd = 20'hfffff;
      for (c = 0; c < 8; c = c + 1) begin
        dxs = $signed({11'b0, s1x[j]}) - $signed({11'b0, cx[c]});
        dys = $signed({11'b0, s1y[j]}) - $signed({11'b0, cy[c]});
        d = $unsigned(dxs * dxs) + $unsigned(dys * dys);
        if (c < kk && d < bestd) begin
          bestd = d;
          best[j] = c[2:0];
        end
      end
    end
  end

  // accumulation of stage 2 into per-cluster sums (adder trees over lanes)
  reg [SW-1:0] addx [0:7];
  reg [SW-1:0] addy [0:7];
  reg [CW-1:0] addn [0:7];
  reg anychg;
  integer a, b;
  always @* begin
    anychg = 1'b0;
    for (a = 0; a < 8; a = a + 1) begin
      addx[a] = {SW{1'b0}};
      addy[a] = {SW{1'b0}};
      addn[a] = {CW{1'b0}};
      for (b = 0; b < LANES; b = b + 1)
        if (s2v[b] && s2best[b] == a[2:0]) begin
          addx[a] = addx[a] + {{(SW-9){1'b0}}, s2x[b]};
          addy[a] = addy[a] + {{(SW-9){1'b0}}, s2y[b]};
          addn[a] = addn[a] + {{(CW-1){1'b0}}, 1'b1};
        end
    end
    for (b = 0; b < LANES; b = b + 1)
      if (s2v[b] && {1'b0, s2best[b]} != s2old[b]) anychg = 1'b1;
  end

  // dividers: division i of a round is number round*NDIV + i of the 2K;
  // even numbers divide x sums, odd numbers y sums, of cluster number/2
  wire [QBITS-1:0] dq [0:NDIV-1];
  reg [SW-1:0] dend [0:NDIV-1];
  reg [CW-1:0] dsor [0:NDIV-1];
  integer m;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [5:0] dnum;
  /* verilator lint_on UNUSEDSIGNAL */
  always @* begin
    for (m = 0; m < NDIV; m = m + 1) begin
      dnum = to6(round * NDIV + m);
      dend[m] = dnum[0] ? sy[dnum[3:1]] : sx[dnum[3:1]];
      dsor[m] = cnt[dnum[3:1]];
    end
  end
  genvar g;
  generate
    for (g = 0; g < NDIV; g = g + 1) begin : div
      kmeans_div #(.SW(SW), .CW(CW), .QBITS(QBITS)) u (
          .clk(clk), .load(state == S_DIVIDE && dc == 4'd0), .dividend(dend[g]), .divisor(dsor[g]), .q(dq[g]));
    end
  endgenerate

  // write back the quotients of round r (a valid division with count > 0)
  task writeback(input [4:0] r);
    integer w;
    reg [5:0] num;
    begin
      for (w = 0; w < NDIV; w = w + 1) begin
        num = to6(r * NDIV + w);
        if (num < {1'b0, kk, 1'b0} && cnt[num[3:1]] != {CW{1'b0}}) begin
          if (num[0]) cy[num[3:1]] <= dq[w];
          else cx[num[3:1]] <= dq[w];
        end
      end
    end
  endtask

  integer p, q2;
  always @(posedge clk) begin
    if (ld_we) begin
      pmx[ld_addr] <= ld_x;
      pmy[ld_addr] <= ld_y;
      lmem[ld_addr] <= 4'd8;
    end
    // pipeline stage 1: read LANES points of row (in ASSIGN)
    s1v <= {LANES{1'b0}};
    if (state == S_ASSIGN) begin
      for (p = 0; p < LANES; p = p + 1)
        if ((row * LANES + p) < nn) begin
          s1x[p] <= pmx[to_aw(row * LANES + p)];
          s1y[p] <= pmy[to_aw(row * LANES + p)];
          s1old[p] <= lmem[to_aw(row * LANES + p)];
          s1v[p] <= 1'b1;
        end
      s1row <= row;
    end
    // stage 2: register the argmin
    s2v <= s1v;
    s2row <= s1row;
    for (p = 0; p < LANES; p = p + 1) begin
      s2x[p] <= s1x[p];
      s2y[p] <= s1y[p];
      s2old[p] <= s1old[p];
      s2best[p] <= best[p];
    end
    // stage 3: labels and accumulators
    for (p = 0; p < LANES; p = p + 1)
      if (s2v[p]) lmem[to_aw(s2row * LANES + p)] <= {1'b0, s2best[p]};
    if (state == S_ASSIGN || state == S_DRAIN) begin
      for (q2 = 0; q2 < 8; q2 = q2 + 1) begin
        sx[q2] <= sx[q2] + addx[q2];
        sy[q2] <= sy[q2] + addy[q2];
        cnt[q2] <= cnt[q2] + addn[q2];
      end
      if (anychg) changed <= 1'b1;
    end

    if (rst) begin
      state <= S_IDLE;
      done <= 1'b0;
      iters <= 32'd0;
      cycles <= 32'd0;
      s1v <= {LANES{1'b0}};
      s2v <= {LANES{1'b0}};
    end else begin
      if (state != S_IDLE) cycles <= cycles + 32'd1;
      case (state)
        S_IDLE:
          if (start) begin
            kk <= k;
            nn <= n;
            maxit <= max_iter;
            rows <= (n + LANES[AW:0] - 1) / LANES[AW:0];
            rounds <= to5((2 * k + NDIV - 1) / NDIV);
            for (q2 = 0; q2 < 8; q2 = q2 + 1) begin
              cx[q2] <= init_c(k, q2[2:0]);
              cy[q2] <= init_c(k, q2[2:0]);
              sx[q2] <= {SW{1'b0}};
              sy[q2] <= {SW{1'b0}};
              cnt[q2] <= {CW{1'b0}};
            end
            changed <= 1'b0;
            row <= {(AW+1){1'b0}};
            iters <= 32'd0;
            cycles <= 32'd1;
            done <= max_iter == 32'd0;
            state <= max_iter == 32'd0 ? S_IDLE : S_ASSIGN;
          end
        S_ASSIGN: begin
          row <= row + 1'b1;
          if (row + 1'b1 == rows) begin
            state <= S_DRAIN;
            dcnt <= 1'b0;
          end
        end
        S_DRAIN: begin
          dcnt <= 1'b1;
          if (dcnt) begin
            state <= S_DIVIDE;
            round <= 5'd0;
            dc <= 4'd0;
          end
        end
        S_DIVIDE: begin
          if (dc == 4'd0 && round != 5'd0) writeback(round - 5'd1);
          if (dc == to4(DIV_LAT - 1)) begin
            dc <= 4'd0;
            round <= round + 5'd1;
            if (round + 5'd1 == rounds) state <= S_COMMIT;
          end else
            dc <= dc + 4'd1;
        end
        S_COMMIT: begin
          writeback(round - 5'd1);
          iters <= iters + 32'd1;
          for (q2 = 0; q2 < 8; q2 = q2 + 1) begin
            sx[q2] <= {SW{1'b0}};
            sy[q2] <= {SW{1'b0}};
            cnt[q2] <= {CW{1'b0}};
          end
          changed <= 1'b0;
          row <= {(AW+1){1'b0}};
          if (iters + 32'd1 == maxit || !changed) begin
            state <= S_IDLE;
            done <= 1'b1;
          end else
            state <= S_ASSIGN;
        end
        default: state <= S_IDLE;
      endcase
    end
  end
endmodule
