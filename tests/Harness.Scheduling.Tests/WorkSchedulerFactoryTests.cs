using System.ComponentModel;

namespace Harness.Scheduling.Tests;

public sealed class WorkSchedulerFactoryTests
{
    [Theory]
    [InlineData("threadpool", typeof(ThreadPoolScheduler), SchedulingMode.ThreadPool)]
    [InlineData("IOCP", typeof(IocpScheduler), SchedulingMode.Iocp)]
    [InlineData(" CustomPool ", typeof(CustomThreadPool), SchedulingMode.CustomPool)]
    public void Create_ChoosesTheImplementationForTheConfiguredName(string name, Type expectedType, SchedulingMode expectedMode)
    {
        // Arrange: the name converted as configuration binding converts it.
        var mode = (SchedulingMode)TypeDescriptor.GetConverter(typeof(SchedulingMode)).ConvertFromInvariantString(name)!;

        // Act
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = mode });

        // Assert
        Assert.IsType(expectedType, scheduler);
        Assert.Equal(expectedMode, scheduler.Mode);
    }

    [Fact]
    public void Create_PassesTheOptionsOn()
    {
        var options = new SchedulingOptions
        {
            Mode = SchedulingMode.Iocp,
            IocpConcurrency = 3,
            IocpMaxThreads = 7,
            IdleTimeout = TimeSpan.FromSeconds(5),
        };

        using var iocp = Assert.IsType<IocpScheduler>(WorkSchedulerFactory.Create(options));
        options.Mode = SchedulingMode.CustomPool;
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
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = SchedulingMode.Iocp, IocpConcurrency = 0 });

        Assert.Equal(Environment.ProcessorCount, Assert.IsType<IocpScheduler>(scheduler).ConcurrencyLimit);
    }

    [Fact]
    public void Create_UndefinedMode_ThrowsNamingTheOptions()
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => WorkSchedulerFactory.Create(new SchedulingOptions { Mode = (SchedulingMode)42 }));

        Assert.Equal("options", error.ParamName);
    }

    [Theory]
    [InlineData("fifo")]
    [InlineData("")]
    [InlineData("1")]
    [InlineData("iocp,custompool")]
    public void ConvertFrom_UnknownName_ThrowsListingTheValidNames(string name)
    {
        var converter = TypeDescriptor.GetConverter(typeof(SchedulingMode));

        var error = Assert.Throws<UnknownSchedulingModeException>(() => converter.ConvertFromInvariantString(name));

        Assert.Equal(name, error.Value);
        Assert.Contains("threadpool", error.Message, StringComparison.Ordinal);
        Assert.Contains("iocp", error.Message, StringComparison.Ordinal);
        Assert.Contains("custompool", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(SchedulingMode.ThreadPool, "threadpool")]
    [InlineData(SchedulingMode.Iocp, "iocp")]
    [InlineData(SchedulingMode.CustomPool, "custompool")]
    public void ConvertTo_WritesTheConfigurationName(SchedulingMode mode, string expected) =>
        Assert.Equal(expected, TypeDescriptor.GetConverter(typeof(SchedulingMode)).ConvertToInvariantString(mode));
}
