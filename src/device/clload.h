/*
 * clload.h: the OpenCL API, loaded at run time.  The binary does not link
 * libOpenCL: clload() opens the ICD loader (libOpenCL.so.1, or the file
 * AGREP_GPU_OPENCL_LIB names) with dlopen the first time a search needs
 * OpenCL, and resolves the functions below.  A search that never asks for a
 * device (the host engines, --device=host, small inputs) never loads it, and
 * the binary runs where no libOpenCL is installed.
 *
 * Every module that calls OpenCL includes this header (through ocl.h): each
 * clXxx name below is a macro for the pointer loaded at run time, so the
 * calls read as the API's.  A function the code starts to call must be added
 * to CLLOAD_FUNCS and to the macros (the link fails otherwise: nothing else
 * defines the clXxx symbols).
 */
#ifndef AGREP_CLLOAD_H
#define AGREP_CLLOAD_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

/* The functions agrep-gpu calls, without their "cl" prefix. */
#define CLLOAD_FUNCS(X) \
	X(BuildProgram) X(CreateBuffer) X(CreateCommandQueue) \
	X(CreateContext) X(CreateKernel) X(CreateProgramWithBinary) \
	X(CreateProgramWithSource) X(EnqueueFillBuffer) X(EnqueueMapBuffer) \
	X(EnqueueNDRangeKernel) X(EnqueueReadBuffer) \
	X(EnqueueUnmapMemObject) X(EnqueueWriteBuffer) X(Finish) X(Flush) \
	X(GetDeviceIDs) X(GetDeviceInfo) X(GetEventProfilingInfo) \
	X(GetPlatformIDs) X(GetPlatformInfo) X(GetProgramBuildInfo) \
	X(GetProgramInfo) X(ReleaseCommandQueue) X(ReleaseContext) \
	X(ReleaseEvent) X(ReleaseKernel) X(ReleaseMemObject) \
	X(ReleaseProgram) X(RetainEvent) X(SetEventCallback) X(SetKernelArg) \
	X(WaitForEvents)

/* One pointer per function, typed as the header declares it. */
struct clload_api {
#define CLLOAD_MEMBER(f) __typeof__(cl##f) *f;
	CLLOAD_FUNCS(CLLOAD_MEMBER)
#undef CLLOAD_MEMBER
};

extern struct clload_api clload_api;

/*
 * Loads the library and every function, once per process (thread-safe);
 * returns 0, or -1 when the library or one of the functions is missing,
 * every later call giving the same answer.  Call it (ocl_devices does)
 * before any clXxx: the pointers are NULL until it has succeeded.
 */
int	clload(void);

#define clBuildProgram			(*clload_api.BuildProgram)
#define clCreateBuffer			(*clload_api.CreateBuffer)
#define clCreateCommandQueue		(*clload_api.CreateCommandQueue)
#define clCreateContext			(*clload_api.CreateContext)
#define clCreateKernel			(*clload_api.CreateKernel)
#define clCreateProgramWithBinary	(*clload_api.CreateProgramWithBinary)
#define clCreateProgramWithSource	(*clload_api.CreateProgramWithSource)
#define clEnqueueFillBuffer		(*clload_api.EnqueueFillBuffer)
#define clEnqueueMapBuffer		(*clload_api.EnqueueMapBuffer)
#define clEnqueueNDRangeKernel		(*clload_api.EnqueueNDRangeKernel)
#define clEnqueueReadBuffer		(*clload_api.EnqueueReadBuffer)
#define clEnqueueUnmapMemObject		(*clload_api.EnqueueUnmapMemObject)
#define clEnqueueWriteBuffer		(*clload_api.EnqueueWriteBuffer)
#define clFinish			(*clload_api.Finish)
#define clFlush				(*clload_api.Flush)
#define clGetDeviceIDs			(*clload_api.GetDeviceIDs)
#define clGetDeviceInfo			(*clload_api.GetDeviceInfo)
#define clGetEventProfilingInfo		(*clload_api.GetEventProfilingInfo)
#define clGetPlatformIDs		(*clload_api.GetPlatformIDs)
#define clGetPlatformInfo		(*clload_api.GetPlatformInfo)
#define clGetProgramBuildInfo		(*clload_api.GetProgramBuildInfo)
#define clGetProgramInfo		(*clload_api.GetProgramInfo)
#define clReleaseCommandQueue		(*clload_api.ReleaseCommandQueue)
#define clReleaseContext		(*clload_api.ReleaseContext)
#define clReleaseEvent			(*clload_api.ReleaseEvent)
#define clReleaseKernel			(*clload_api.ReleaseKernel)
#define clReleaseMemObject		(*clload_api.ReleaseMemObject)
#define clReleaseProgram		(*clload_api.ReleaseProgram)
#define clRetainEvent			(*clload_api.RetainEvent)
#define clSetEventCallback		(*clload_api.SetEventCallback)
#define clSetKernelArg			(*clload_api.SetKernelArg)
#define clWaitForEvents			(*clload_api.WaitForEvents)

#endif
