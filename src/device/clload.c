/* clload.c: open the OpenCL ICD loader at run time (see clload.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clload.h"

struct clload_api clload_api;

static pthread_once_t	 once = PTHREAD_ONCE_INIT;
static int		 loaded;	/* 1: every pointer is set */

static void
load(void)
{
	const char *lib = getenv("AGREP_GPU_OPENCL_LIB");
	struct clload_api api;
	int ok = 1;
	void *h;

	if (lib == NULL || *lib == '\0')
		lib = "libOpenCL.so.1";
	if ((h = dlopen(lib, RTLD_NOW | RTLD_LOCAL)) == NULL)
		return;
#define CLLOAD_SYM(f) \
	if ((api.f = (__typeof__(api.f))dlsym(h, "cl" #f)) == NULL) \
		ok = 0;
	CLLOAD_FUNCS(CLLOAD_SYM)
#undef CLLOAD_SYM
	if (!ok) {
		dlclose(h);
		return;
	}
	/* The handle stays open for the life of the process. */
	clload_api = api;
	loaded = 1;
}

int
clload(void)
{
	pthread_once(&once, load);
	return loaded ? 0 : -1;
}
