/* cpu.h: the instruction sets the process may use (the CPU's, capped by
 * AGREP_GPU_ISA).  Every engine asks here, never the CPU directly. */
#ifndef AGREP_CPU_H
#define AGREP_CPU_H

/* Levels, each including the ones below it. */
enum {
	CPU_BASELINE = 0,	/* the architecture's baseline (x86-64: SSE2) */
	CPU_AVX2,		/* x86-64: AVX2 */
	CPU_AVX512BW,		/* x86-64: AVX-512F and AVX-512BW */
	CPU_AVX512VBMI,		/* x86-64: those, AVX-512 VBMI and VPOPCNTDQ */
	CPU_NLEVELS
};

/* cpu.c */
int	 cpu_level(void);
const char *cpu_level_name(int level);

/* Whether the process may use a level's instructions. */
static inline int
cpu_has(int level)
{
	return cpu_level() >= level;
}

#endif
