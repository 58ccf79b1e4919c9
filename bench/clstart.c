/*
 * clstart.c: where an OpenCL run's fixed costs go on this machine (issue 21,
 * 25): the platforms' start (the ICD loader starts every driver registered),
 * each GPU's context, N pinned buffers of M MiB made and mapped (as a device's
 * slots), and their release and the context's.  Prints seconds for each.
 * With "keep" as third argument it releases nothing and exits with the
 * context open, as a process that leaves the clean-up to the driver.
 *   cc -O2 -o clstart bench/clstart.c -lOpenCL; ./clstart [N [M [keep]]]
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
	int nbuf = argc > 1 ? atoi(argv[1]) : 16;
	int keep = argc > 3;
	size_t sz = (size_t)(argc > 2 ? atoi(argv[2]) : 16) << 20;
	cl_platform_id pl[8];
	cl_uint np = 0;
	double t = now();

	clGetPlatformIDs(8, pl, &np);
	printf("platforms (%u): %.3f s\n", np, now() - t);
	for (cl_uint p = 0; p < np; p++) {
		cl_device_id dev[8];
		cl_uint nd = 0;
		char name[128] = "";
		t = now();
		clGetDeviceIDs(pl[p], CL_DEVICE_TYPE_ALL, 8, dev, &nd);
		clGetPlatformInfo(pl[p], CL_PLATFORM_NAME, sizeof(name), name,
		    NULL);
		printf("%s: %u devices: %.3f s\n", name, nd, now() - t);
		for (cl_uint d = 0; d < nd; d++) {
			cl_device_type ty;
			cl_int e;
			clGetDeviceInfo(dev[d], CL_DEVICE_TYPE, sizeof(ty), &ty,
			    NULL);
			if (!(ty & CL_DEVICE_TYPE_GPU))
				continue;
			t = now();
			cl_context c = clCreateContext(NULL, 1, &dev[d], NULL,
			    NULL, &e);
			cl_command_queue q = clCreateCommandQueue(c, dev[d], 0,
			    &e);
			printf("  GPU %u: context and queue %.3f s\n", d,
			    now() - t);
			cl_mem *b = calloc((size_t)nbuf, sizeof(*b));
			if (b == NULL)
				return 1;
			t = now();
			for (int i = 0; i < nbuf; i++) {
				b[i] = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, sz,
				    NULL, &e);
				void *h = clEnqueueMapBuffer(q, b[i], CL_TRUE,
				    CL_MAP_WRITE, 0, sz, 0, NULL, NULL, &e);
				(void)h;
			}
			printf("  %d pinned buffers of %zu MiB made and "
			    "mapped: %.3f s\n", nbuf, sz >> 20, now() - t);
			if (keep)
				continue;
			t = now();
			for (int i = 0; i < nbuf; i++)
				clReleaseMemObject(b[i]);
			clFinish(q);
			printf("  released: %.3f s\n", now() - t);
			t = now();
			clReleaseCommandQueue(q);
			clReleaseContext(c);
			printf("  context released: %.3f s\n", now() - t);
			free(b);
		}
	}
	return 0;
}
