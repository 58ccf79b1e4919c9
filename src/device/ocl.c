/* ocl.c: find OpenCL devices, pick one, build the kernel program. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ocl.h"
#include "../base/util.h"

/* Returns the name of an OpenCL error code. */
const char *
ocl_errstr(cl_int err)
{
	switch (err) {
#define E(x) case x: return #x;
	E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE)
	E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
	E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
	E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE) E(CL_INVALID_VALUE)
	E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
	E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_MEM_OBJECT)
	E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
	E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE)
	E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL)
	E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
	E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION)
	E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE)
	E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
	E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION)
	E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_GLOBAL_WORK_SIZE)
	E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
	E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef E
	}
	return "unknown OpenCL error";
}

/* Lists every device of every platform into a new array; returns 0, or -1
 * when there is no OpenCL platform or device at all, or no OpenCL library
 * to load (every OpenCL use starts here: this loads it, see clload.h). */
int
ocl_devices(struct ocl_dev **out, size_t *count)
{
	cl_uint np = 0;
	cl_platform_id *plats = NULL;
	struct ocl_dev *devs = NULL;
	size_t n = 0;

	*out = NULL;
	*count = 0;
	if (clload() == -1)
		return -1;
	if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0)
		return -1;
	plats = xcalloc(np, sizeof(*plats));
	if (clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS)
		np = 0;
	for (cl_uint p = 0; p < np; p++) {
		cl_uint nd = 0;
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd)
		    != CL_SUCCESS || nd == 0)
			continue;
		cl_device_id *ids = xcalloc(nd, sizeof(*ids));
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL)
		    != CL_SUCCESS)
			nd = 0;
		devs = xreallocarray(devs, n + nd, sizeof(*devs));
		for (cl_uint d = 0; d < nd; d++) {
			struct ocl_dev *o = &devs[n++];
			memset(o, 0, sizeof(*o));
			o->platform = plats[p];
			o->device = ids[d];
			clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof(o->type),
			    &o->type, NULL);
			clGetDeviceInfo(ids[d], CL_DEVICE_MAX_COMPUTE_UNITS,
			    sizeof(o->units), &o->units, NULL);
			clGetDeviceInfo(ids[d], CL_DEVICE_NAME,
			    sizeof(o->name) - 1, o->name, NULL);
			clGetPlatformInfo(plats[p], CL_PLATFORM_NAME,
			    sizeof(o->pname) - 1, o->pname, NULL);
		}
		free(ids);
	}
	free(plats);
	if (n == 0) {
		free(devs);
		return -1;
	}
	*out = devs;
	*count = n;
	return 0;
}

static const char *
type_name(cl_device_type t)
{
	if (t & CL_DEVICE_TYPE_GPU)
		return "gpu";
	if (t & CL_DEVICE_TYPE_CPU)
		return "cpu";
	if (t & CL_DEVICE_TYPE_ACCELERATOR)
		return "accelerator";
	return "other";
}

static void
no_platform(void)
{
	warnx_("no OpenCL platform or device found; install POCL, the CPU "
	    "OpenCL driver (make deps, or apt-get install pocl-opencl-icd), "
	    "or use --device=host");
}

/*
 * Picks a device by spec: NULL, "" or "auto" (the first GPU, else the first
 * CPU device, else the first device), "gpu", "cpu", or an index from
 * --list-devices.  Returns 0, or -1 after a message.
 */
int
ocl_choose(const char *spec, struct ocl_dev *out)
{
	struct ocl_dev *devs;
	size_t n, pick = (size_t)-1;
	cl_device_type want = 0;

	if (ocl_devices(&devs, &n) == -1) {
		no_platform();
		return -1;
	}
	if (spec == NULL || *spec == '\0' || strcmp(spec, "auto") == 0) {
		for (size_t i = 0; i < n && pick == (size_t)-1; i++)
			if (devs[i].type & CL_DEVICE_TYPE_GPU)
				pick = i;
		for (size_t i = 0; i < n && pick == (size_t)-1; i++)
			if (devs[i].type & CL_DEVICE_TYPE_CPU)
				pick = i;
		if (pick == (size_t)-1)
			pick = 0;
	} else if (strcmp(spec, "gpu") == 0 || strcmp(spec, "cpu") == 0) {
		want = spec[0] == 'g' ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
		for (size_t i = 0; i < n && pick == (size_t)-1; i++)
			if (devs[i].type & want)
				pick = i;
		if (pick == (size_t)-1)
			warnx_("no OpenCL %s device found (see --list-devices)",
			    spec);
	} else {
		char *end;
		unsigned long v = strtoul(spec, &end, 10);
		if (*end != '\0' || end == spec || v >= n)
			warnx_("no OpenCL device '%s' (see --list-devices)",
			    spec);
		else
			pick = v;
	}
	if (pick != (size_t)-1)
		*out = devs[pick];
	free(devs);
	return pick == (size_t)-1 ? -1 : 0;
}

/* Prints one line per device: index, platform, name, type.  Returns 0, or
 * -1 when there is no device. */
int
ocl_list(FILE *fp)
{
	struct ocl_dev *devs;
	size_t n;

	if (ocl_devices(&devs, &n) == -1) {
		no_platform();
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%zu: %s / %s (%s, %u compute units)\n", i,
		    devs[i].pname, devs[i].name, type_name(devs[i].type),
		    devs[i].units);
	free(devs);
	return 0;
}

/* FNV-1a over a string, continuing from h. */
static uint64_t
fnv(uint64_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;
}

/*
 * Names the cache file of a program binary: $XDG_CACHE_HOME/agrep-gpu (or
 * ~/.cache/agrep-gpu), keyed by platform, device, driver, options and
 * source.  Returns 0, or -1 when there is no cache directory.
 */
static int
cache_path(const struct ocl_dev *d, const char *src, const char *options,
    char *path, size_t len)
{
	char driver[256] = "", dir[PATH_MAX - 64];
	uint64_t h = 0xcbf29ce484222325ULL;

	if (util_cache_dir(dir, sizeof(dir), 1) == -1)
		return -1;
	clGetDeviceInfo(d->device, CL_DRIVER_VERSION, sizeof(driver) - 1,
	    driver, NULL);
	h = fnv(fnv(fnv(fnv(fnv(h, d->pname), d->name), driver), options), src);
	snprintf(path, len, "%s/%016llx.bin", dir, (unsigned long long)h);
	return 0;
}

/* A cache file: this header, then the binary.  A file cut short or damaged
 * (full disk, a crash while writing) fails the checks and is rebuilt: a
 * damaged binary handed to the driver can crash it. */
struct cache_head {
	char		magic[8];	/* "agrepgpu" */
	uint64_t	len;		/* bytes of binary */
	uint64_t	sum;		/* FNV-1a of the binary */
};

static uint64_t
fnv_bytes(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n-- > 0)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

/* Loads a cached program binary; returns the built program or NULL. */
static cl_program
cache_load(cl_context ctx, const struct ocl_dev *d, const char *path,
    const char *options)
{
	FILE *f = fopen(path, "rb");
	struct cache_head h;
	unsigned char *bin;
	cl_program prog;
	cl_int err, st;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	if (n <= (long)sizeof(h) || fread(&h, sizeof(h), 1, f) != 1 ||
	    memcmp(h.magic, "agrepgpu", 8) != 0 ||
	    h.len != (uint64_t)n - sizeof(h)) {
		fclose(f);
		return NULL;
	}
	bin = xmalloc(h.len);
	if (fread(bin, 1, h.len, f) != h.len ||
	    fnv_bytes(bin, h.len) != h.sum) {
		free(bin);
		fclose(f);
		return NULL;
	}
	fclose(f);
	size_t len = h.len;
	prog = clCreateProgramWithBinary(ctx, 1, &d->device, &len,
	    (const unsigned char **)&bin, &st, &err);
	free(bin);
	if (prog == NULL)
		return NULL;
	if (clBuildProgram(prog, 1, &d->device, options, NULL, NULL) !=
	    CL_SUCCESS) {
		clReleaseProgram(prog);
		return NULL;
	}
	return prog;
}

/* Saves a built program's binary (atomically: a temporary, then rename). */
static void
cache_save(cl_program prog, const char *path)
{
	size_t len = 0;
	unsigned char *bin;
	char tmp[PATH_MAX + 16];
	FILE *f;

	if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof(len), &len,
	    NULL) != CL_SUCCESS || len == 0)
		return;
	bin = xmalloc(len);
	if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof(bin), &bin,
	    NULL) == CL_SUCCESS) {
		/* (devices open side by side: one temporary a thread) */
		snprintf(tmp, sizeof(tmp), "%s.%ld.%lx", path, (long)getpid(),
		    (unsigned long)pthread_self());
		struct cache_head h = { "agrepgp", len, fnv_bytes(bin, len) };
		memcpy(h.magic, "agrepgpu", 8);
		if ((f = fopen(tmp, "wb")) != NULL) {
			int ok = fwrite(&h, sizeof(h), 1, f) == 1 &&
			    fwrite(bin, 1, len, f) == len;
			if (fclose(f) == 0 && ok)
				(void)util_cache_replace(tmp, path);
			else
				unlink(tmp);
		}
	}
	free(bin);
}

/*
 * Builds the program for one device, from the binary cache when it holds
 * one for this device, driver and source; on failure prints the build log
 * to stderr and returns NULL.  *built: the seconds spent compiling the
 * source (0 when the cache had it).
 */
cl_program
ocl_build(cl_context ctx, const struct ocl_dev *d, const char *src,
    const char *options, double *built)
{
	char path[PATH_MAX];
	int cached = cache_path(d, src, options, path, sizeof(path)) == 0;
	cl_int err;
	cl_program prog;
	double t0;

	*built = 0;
	if (cached && (prog = cache_load(ctx, d, path, options)) != NULL)
		return prog;
	t0 = util_now();
	prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);

	if (prog == NULL) {
		OCL_FAIL("clCreateProgramWithSource", err);
		return NULL;
	}
	err = clBuildProgram(prog, 1, &d->device, options, NULL, NULL);
	if (err != CL_SUCCESS) {
		size_t len = 0;
		OCL_FAIL("clBuildProgram", err);
		clGetProgramBuildInfo(prog, d->device, CL_PROGRAM_BUILD_LOG, 0,
		    NULL, &len);
		char *log = xmalloc(len + 1);
		if (clGetProgramBuildInfo(prog, d->device, CL_PROGRAM_BUILD_LOG,
		    len, log, NULL) == CL_SUCCESS) {
			log[len] = '\0';
			fprintf(stderr, "%s: kernel build log:\n%s\n", progname,
			    log);
		}
		free(log);
		clReleaseProgram(prog);
		return NULL;
	}
	if (cached)
		cache_save(prog, path);
	*built = util_now() - t0;
	return prog;
}

/*
 * Picks the devices to search with: for "all", every GPU, then every CPU
 * device; for "gpu", every GPU; for NULL, "" or "auto", every GPU when
 * there are several, else the one ocl_choose picks; otherwise the one
 * device ocl_choose picks.
 * AGREP_GPU_DEVICE_COPIES=N repeats the list N times (separate contexts on
 * the same device: how the tests drive the multi-device path on POCL).
 * Returns how many were put in out (at most max), or -1 after a message.
 */
int
ocl_choose_all(const char *spec, struct ocl_dev *out, int max)
{
	struct ocl_dev *devs;
	size_t n;
	int got = 0, copies = 1;
	const char *c = getenv("AGREP_GPU_DEVICE_COPIES");
	int all = spec != NULL && strcmp(spec, "all") == 0;
	int autom = spec == NULL || *spec == '\0' || strcmp(spec, "auto") == 0;
	int gpus = spec != NULL && strcmp(spec, "gpu") == 0;

	if (all || autom || gpus) {
		if (ocl_devices(&devs, &n) == -1) {
			no_platform();
			return -1;
		}
		/* all: the GPUs, then the CPU devices; gpu: the GPUs; auto:
		 * the GPUs if there are several */
		for (int pass = 0; pass < (all ? 2 : 1); pass++) {
			cl_device_type t = pass == 0 ? CL_DEVICE_TYPE_GPU :
			    CL_DEVICE_TYPE_CPU;
			for (size_t i = 0; i < n && got < max; i++)
				if (devs[i].type & t)
					out[got++] = devs[i];
			if (autom && got < 2)
				got = 0;	/* auto: several GPUs, or one */
		}
		free(devs);
	}
	if (got == 0) {
		if (ocl_choose(all ? "cpu" : spec, &out[0]) == -1)
			return -1;
		got = 1;
	}
	if (c != NULL && atoi(c) > 1)
		copies = atoi(c);
	for (int i = got; i < got * copies && i < max; i++)
		out[i] = out[i % got];
	return got * copies < max ? got * copies : max;
}
