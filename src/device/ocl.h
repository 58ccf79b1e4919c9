/* ocl.h: the OpenCL runtime: platforms, devices, context, program. */
#ifndef AGREP_OCL_H
#define AGREP_OCL_H

#include "clload.h"	/* the OpenCL API, loaded at run time */
#include <stdio.h>

#define OCL_MAXDEV	8	/* devices one search uses at most */

struct ocl_dev {
	cl_platform_id	 platform;
	cl_device_id	 device;
	cl_device_type	 type;
	cl_uint		 units;		/* compute units */
	char		 name[256];
	char		 pname[256];	/* platform name */
};

/* ocl.c */
const char	*ocl_errstr(cl_int);
int		 ocl_devices(struct ocl_dev **, size_t *);
int		 ocl_choose(const char *spec, struct ocl_dev *);
int		 ocl_choose_all(const char *spec, struct ocl_dev *, int max);
int		 ocl_list(FILE *);
cl_program	 ocl_build(cl_context, const struct ocl_dev *, const char *src,
		    const char *options, double *built);

/* Reports a failed OpenCL call with its error name, file and line. */
#define OCL_FAIL(call, err) \
	warnx_("OpenCL: %s failed: %s (%s:%d)", call, ocl_errstr(err), \
	    __FILE__, __LINE__)

#endif
