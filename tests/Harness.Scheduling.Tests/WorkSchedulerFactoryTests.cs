namespace Harness.Scheduling.Tests;

public sealed class WorkSchedulerFactoryTests
{
    [Theory]
    [InlineData("threadpool", typeof(ThreadPoolScheduler), SchedulingMode.ThreadPool)]
    [InlineData("IOCP", typeof(IocpScheduler), SchedulingMode.Iocp)]
    [InlineData(" CustomPool ", typeof(CustomThreadPool), SchedulingMode.CustomPool)]
    public void Create_ChoosesTheImplementationForTheMode(string name, Type expectedType, SchedulingMode expectedMode)
    {
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = name });

        Assert.IsType(expectedType, scheduler);
        Assert.Equal(expectedMode, scheduler.Mode);
    }

    [Fact]
    public void Create_PassesTheOptionsOn()
    {
        var options = new SchedulingOptions
        {
            Mode = "iocp",
            IocpConcurrency = 3,
            IocpMaxThreads = 7,
            IdleTimeout = TimeSpan.FromSeconds(5),
        };

        using var iocp = Assert.IsType<IocpScheduler>(WorkSchedulerFactory.Create(options));
        options.Mode = "custompool";
        options.CustomPoolMinThreads = 2;
        options.CustomPoolMaxThreads = 9;
        using var pool = Assert.IsType<CustomThreadPool>(WorkSchedulerFactory.Create(options));

        Assert.Equal((3, 7, TimeSpan.FromSeconds(5)), (iocp.ConcurrencyLimit, iocp.MaxThreads, iocp.IdleTimeout));
        Assert.Equal((2, 9, TimeSpan.FromSeconds(5)), (pool.MinThreads, pool.MaxThreads, pool.IdleTimeout));
        Assert.Equal(2, pool.GetCounters().ThreadsTotal);
    }

    [Fact]
    public void Create_IocpWithZeroConcurrency_UsesTheProcessorCount()
    {
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = "iocp", IocpConcurrency = 0 });

        Assert.Equal(Environment.ProcessorCount, Assert.IsType<IocpScheduler>(scheduler).ConcurrencyLimit);
    }

    [Theory]
    [InlineData("fifo")]
    [InlineData("")]
    public void Create_UnknownMode_ThrowsListingTheValidNames(string name)
    {
        var error = Assert.Throws<ArgumentException>(() => WorkSchedulerFactory.Create(new SchedulingOptions { Mode = name }));

        Assert.Equal("options", error.ParamName);
        Assert.Contains("threadpool", error.Message, StringComparison.Ordinal);
        Assert.Contains("iocp", error.Message, StringComparison.Ordinal);
        Assert.Contains("custompool", error.Message, StringComparison.Ordinal);
    }
}
