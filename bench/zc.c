/* bench/zc.c (run on a GPU machine, not built by make): copy paths from a file in the page cache to the GPU, T threads, CHUNK bytes a step:
 *  P: pread into the thread's two pinned buffers, then clEnqueueWriteBuffer (feedrate.c)
 *  U: the mmapped chunk as a CL_MEM_USE_HOST_PTR buffer, clEnqueueCopyBuffer to the device
 *  W: clEnqueueWriteBuffer straight from the mmapped chunk (pageable)
 *  K: the mmapped chunk as a CL_MEM_USE_HOST_PTR buffer read by a kernel (no copy)
 *  M: the thread's pinned buffers filled by memcpy from the mapping, then written (P with mmap)
 *  F: M from a fresh mapping (its pages not yet touched by the process)
 *  B: P through a 256 KB buffer: pread into it, then memcpy into the pinned one
 * cc -O2 -o zc zc.c -lOpenCL -lpthread ; ./zc FILE [chunk_MiB [MODES]]
 * (bench/results/h100.md, run 13 of 2026-12-07) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int fd; static size_t len, chunk; static int T; static char mode; static cl_context ctx; static cl_device_id dev;
static size_t next; static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar; static double t0; static char *map; static cl_program prog;
#define BOUNCE (256u << 10)
static double tcreate[64]; static long ncreate[64]; static int errs;
static const char *src = "__kernel void sum(__global const uint4 *t, uint n, __global uint *out) {"
 " uint i = get_global_id(0), s = 0; for (uint j = i; j < n; j += get_global_size(0)) { uint4 v = t[j]; s += v.x ^ v.y ^ v.z ^ v.w; }"
 " if (s == 0x12345678u) out[0] = s; }";
static void *worker(void *a) {
	int me = (int)(long)a; cl_int e; cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
	cl_mem pin[2], d[2], hb[2] = {0, 0}; char *h[2]; cl_event ev[2] = {0, 0};
	cl_kernel k = mode == 'K' ? clCreateKernel(prog, "sum", &e) : NULL;
	cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
	for (int i = 0; i < 2; i++) { pin[i] = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, chunk, NULL, &e);
		h[i] = clEnqueueMapBuffer(q, pin[i], CL_TRUE, CL_MAP_WRITE, 0, chunk, 0, NULL, NULL, &e);
		d[i] = clCreateBuffer(ctx, CL_MEM_READ_ONLY, chunk, NULL, &e); }
	clEnqueueWriteBuffer(q, d[0], CL_TRUE, 0, chunk, h[0], 0, NULL, NULL);
	clEnqueueWriteBuffer(q, d[1], CL_TRUE, 0, chunk, h[1], 0, NULL, NULL);
	if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD) t0 = now();
	pthread_barrier_wait(&bar);
	for (int s = 0;; s ^= 1) {
		pthread_mutex_lock(&mu); size_t o = next; next += chunk; pthread_mutex_unlock(&mu);
		if (o >= len) break;
		if (ev[s]) { clWaitForEvents(1, &ev[s]); clReleaseEvent(ev[s]); ev[s] = 0; }
		if (hb[s]) { clReleaseMemObject(hb[s]); hb[s] = 0; }
		size_t n = len - o < chunk ? len - o : chunk, got = 0;
		if (mode == 'P') {
			while (got < n) { ssize_t r = pread(fd, h[s] + got, n - got, o + got); if (r <= 0) break; got += r; }
			clEnqueueWriteBuffer(q, d[s], CL_FALSE, 0, n, h[s], 0, NULL, &ev[s]);
		} else if (mode == 'M' || mode == 'F') {
			memcpy(h[s], map + o, n);
			clEnqueueWriteBuffer(q, d[s], CL_FALSE, 0, n, h[s], 0, NULL, &ev[s]);
		} else if (mode == 'B') {
			static __thread char *bb; if (!bb) bb = aligned_alloc(4096, BOUNCE);
			for (size_t at = 0; at < n; at += BOUNCE) { size_t m = n - at < BOUNCE ? n - at : BOUNCE, g = 0;
				while (g < m) { ssize_t r = pread(fd, bb + g, m - g, o + at + g); if (r <= 0) break; g += r; }
				memcpy(h[s] + at, bb, m); }
			clEnqueueWriteBuffer(q, d[s], CL_FALSE, 0, n, h[s], 0, NULL, &ev[s]);
		} else if (mode == 'W') {
			e = clEnqueueWriteBuffer(q, d[s], CL_FALSE, 0, n, map + o, 0, NULL, &ev[s]);
			if (e) errs++;
		} else {
			double tc = now();
			hb[s] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, n, map + o, &e);
			tcreate[me] += now() - tc; ncreate[me]++;
			if (e) { errs++; continue; }
			if (mode == 'U')
				e = clEnqueueCopyBuffer(q, hb[s], d[s], 0, 0, n, 0, NULL, &ev[s]);
			else {
				cl_uint nv = (cl_uint)(n / 16); size_t gs = 65536, ls = 256;
				clSetKernelArg(k, 0, sizeof(cl_mem), &hb[s]); clSetKernelArg(k, 1, sizeof(nv), &nv);
				clSetKernelArg(k, 2, sizeof(cl_mem), &out);
				e = clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &ls, 0, NULL, &ev[s]);
			}
			if (e) errs++;
		}
		clFlush(q);
	}
	clFinish(q);
	for (int i = 0; i < 2; i++) { if (ev[i]) clReleaseEvent(ev[i]); if (hb[i]) clReleaseMemObject(hb[i]);
		clEnqueueUnmapMemObject(q, pin[i], h[i], 0, NULL, NULL); clReleaseMemObject(pin[i]); clReleaseMemObject(d[i]); }
	clFinish(q); clReleaseMemObject(out); if (k) clReleaseKernel(k); clReleaseCommandQueue(q); return NULL;
}
int main(int argc, char **argv) {
	fd = open(argv[1], O_RDONLY); struct stat st; fstat(fd, &st); len = st.st_size;
	chunk = (argc > 2 ? atoi(argv[2]) : 8) * 1048576UL;
	const char *modes = argc > 3 ? argv[3] : "PMUWK";
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	cl_platform_id pl[4]; cl_uint np; clGetPlatformIDs(4, pl, &np);
	int found = 0;
	for (cl_uint p = 0; p < np && !found; p++) if (!clGetDeviceIDs(pl[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) found = 1;
	for (cl_uint p = 0; p < np && !found; p++) if (!clGetDeviceIDs(pl[p], CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) found = 1;
	char dn[256] = ""; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dn), dn, NULL); printf("device: %s\n", dn);
	cl_int e; ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e); e = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
	if (e) printf("build: %d\n", e);
	int ts[] = {1, 4, 8, 16};
	for (const char *m = modes; *m; m++) for (int r = 0; r < 4; r++) {
		mode = *m;
		if (mode == 'F') { munmap(map, len); map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0); } T = ts[r]; next = 0; errs = 0; pthread_t th[16]; double ta = now();
		memset(tcreate, 0, sizeof(tcreate)); memset(ncreate, 0, sizeof(ncreate));
		pthread_barrier_init(&bar, NULL, T);
		for (int i = 0; i < T; i++) pthread_create(&th[i], NULL, worker, (void *)(long)i);
		for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
		double t = now(); pthread_barrier_destroy(&bar);
		double tc = 0; long nc = 0; for (int i = 0; i < T; i++) tc += tcreate[i], nc += ncreate[i];
		printf("mode %c: %2d threads, %zu MiB chunks: %.1f GB/s steady (%.1f with setup)%s", mode, T, chunk >> 20,
		    len / (t - t0) / 1e9, len / (t - ta) / 1e9, errs ? " ERRORS" : "");
		if (nc) printf("; create %.3f ms each", tc / nc * 1e3);
		printf("\n"); fflush(stdout); }
	return 0;
}
