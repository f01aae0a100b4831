using System.Globalization;
using Harness.LoadTests.Common;
using Harness.LoadTests.Hosting;
using Harness.Metrics;

namespace Harness.LoadTests.Tests;

/// <summary><c>--service-cpus</c>: the processor list, its checks, and services that really run on the listed processors.</summary>
public sealed class CpuAffinityTests
{
    [Theory]
    [InlineData("1", "1", new[] { 1 })]
    [InlineData("0-3", "0-3", new[] { 0, 1, 2, 3 })]
    [InlineData(" 3, 0-1 ,1", "0-1,3", new[] { 0, 1, 3 })]
    [InlineData("2,0,1", "0-2", new[] { 0, 1, 2 })]
    public void Parse_ReadsNumbersAndRanges_AndNormalisesTheList(string text, string list, int[] processors)
    {
        var affinity = CpuAffinity.Parse(text, machineProcessors: 4);

        Assert.Equal(list, affinity.List);
        Assert.Equal(processors, affinity.Processors);
        Assert.Equal(["taskset", "-c", list], affinity.CommandPrefix);
    }

    [Theory]
    [InlineData("", "is not a number or a range")]
    [InlineData("a", "is not a number or a range")]
    [InlineData("1-2-3", "is not a number or a range")]
    [InlineData("-1", "is not a number or a range")]
    [InlineData("3-1", "runs backwards")]
    [InlineData("0,4", "this machine has processors 0–3 only")]
    public void Parse_RefusesWhatTasksetWouldNot_NamingTheValidProcessors(string text, string reason)
    {
        var error = Assert.Throws<FormatException>(() => CpuAffinity.Parse(text, machineProcessors: 4));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        Assert.Contains("0–3", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void OnlineProcessors_CountsTheMachinesProcessors_AtLeastThoseThisProcessMayUse()
    {
        Assert.True(CpuAffinity.OnlineProcessors() >= Environment.ProcessorCount);
    }

    [Fact]
    public void RunOption_WithATarget_IsRefused_AsTheServicesRunElsewhere()
    {
        var error = Assert.Throws<UsageException>(() => MeasurementOptionsTests.Bind("run", "--service-cpus", "0", "--target", "grpc=http://127.0.0.1:5082"));

        Assert.Contains("--service-cpus", error.Message, StringComparison.Ordinal);
        Assert.Contains("--target", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RunOption_NamesTheOption_WhenTheListIsBad()
    {
        var error = Assert.Throws<UsageException>(() => MeasurementOptionsTests.Bind("run", "--service-cpus", "0-"));

        Assert.StartsWith("--service-cpus '0-'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task LocalService_StartedOnOneProcessor_RunsThereAndSeesOneProcessor()
    {
        // Arrange: the last processor of the machine; on a one-processor machine the list is the whole machine.
        var last = CpuAffinity.OnlineProcessors() - 1;
        var affinity = CpuAffinity.Parse(last.ToString(CultureInfo.InvariantCulture), last + 1);

        // Act
        await using var service = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", [], CancellationToken.None, [], affinity);
        using var http = new HttpClient();
        var metrics = await http.GetStringAsync(new Uri(service.MetricsAddress, "metrics"));

        // Assert: the runtime counted one processor (the ThreadPool, iocp's concurrency and the GC follow it).
        var processors = metrics.Split('\n').Single(l => l.StartsWith(MetricNames.Processors + " ", StringComparison.Ordinal));
        Assert.Equal($"{MetricNames.Processors} 1", processors.Trim());
    }
}
