/* mpi.h: searching one file with several MPI ranks (make MPI=1). */
#ifndef AGREP_MPI_H
#define AGREP_MPI_H

/* mpi.c */
void	mpi_start(int *argc, char ***argv);
int	mpi_rank(void);
int	mpi_ranks(void);
int	mpi_worker(void);
int	mpi_search_file(const char *path, int show_name);
void	mpi_end(void);

#endif
