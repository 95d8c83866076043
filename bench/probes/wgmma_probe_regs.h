// The 32 f32 accumulators of an m64n64k16 wgmma as inline-asm operands
// (WG_ACC32, on a float d[32]) and their PTX register list (REGS32, operands
// %0-%31), shared by the probes in this directory.
#ifndef ATTNOPT_BENCH_PROBES_WGMMA_PROBE_REGS_H
#define ATTNOPT_BENCH_PROBES_WGMMA_PROBE_REGS_H

#define WG_ACC32                                                               \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),      \
      "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]),             \
      "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),         \
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),         \
      "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),         \
      "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),         \
      "+f"(d[31])
#define REGS32                                                                 \
  "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%"   \
  "20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"

#endif // ATTNOPT_BENCH_PROBES_WGMMA_PROBE_REGS_H
