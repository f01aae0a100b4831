using Harness.LoadTests.Commands;
using Harness.LoadTests.Scenarios;

namespace Harness.LoadTests.Tests;

/// <summary>A run that would need more file descriptors than a process may open is refused before any load.</summary>
public sealed class DescriptorBudgetTests
{
    private static readonly OperationSettings TaskDelay = OperationSettings.Default with { Fanout = 1, Style = "task-delay" };

    [Fact]
    public void Soap_needs_a_descriptor_per_user_and_is_refused_past_the_limit_with_the_largest_count_that_fits()
    {
        var message = DescriptorBudget.Check(["soap", "grpc"], ["call-third-party"], TaskDelay, peakUsers: 30_000, localServices: true, limit: 20_000);

        Assert.NotNull(message);
        Assert.StartsWith("--users 30,000 needs about 30,000 file descriptors per process", message, StringComparison.Ordinal);
        Assert.Contains("limit of 20,000", message, StringComparison.Ordinal);
        Assert.Contains($"Use --users {20_000 - DescriptorBudget.Reserve:N0} or fewer", message, StringComparison.Ordinal);
    }

    [Fact]
    public void Soap_within_the_limit_and_grpc_with_in_process_waits_at_any_count_are_allowed()
    {
        Assert.Null(DescriptorBudget.Check(["soap"], ["compute"], TaskDelay, peakUsers: 20_000 - DescriptorBudget.Reserve, localServices: true, limit: 20_000));
        Assert.Null(DescriptorBudget.Check(["grpc"], ["call-third-party"], TaskDelay, peakUsers: 100_000, localServices: true, limit: 20_000));
    }

    [Fact]
    public void Calls_to_the_stub_hold_a_descriptor_each_in_a_local_service_on_either_stack()
    {
        var blocking = OperationSettings.Default with { Fanout = 4, Style = "async", Parallelism = 2 };

        var local = DescriptorBudget.Check(["grpc"], ["call-third-party"], blocking, peakUsers: 10_000, localServices: true, limit: 20_000);
        var external = DescriptorBudget.Check(["grpc"], ["call-third-party"], blocking, peakUsers: 10_000, localServices: false, limit: 20_000);
        var computeOnly = DescriptorBudget.Check(["grpc"], ["compute"], blocking, peakUsers: 10_000, localServices: true, limit: 20_000);

        Assert.NotNull(local);
        Assert.Contains("needs about 20,000", local, StringComparison.Ordinal);
        Assert.Contains("2 to the stub", local, StringComparison.Ordinal);
        Assert.Null(external);
        Assert.Null(computeOnly);
    }

    [Fact]
    public void Nothing_is_refused_when_the_peak_or_the_limit_is_unknown()
    {
        Assert.Null(DescriptorBudget.Check(["soap"], ["compute"], TaskDelay, peakUsers: null, localServices: true, limit: 20_000));
        Assert.Null(DescriptorBudget.Check(["soap"], ["compute"], TaskDelay, peakUsers: 1_000_000, localServices: true, limit: null));
    }

    [Fact]
    public async Task Run_past_this_machines_limit_exits_with_code_2_before_any_load()
    {
        var output = HarnessRun.TempFolder();

        // More users than any Linux process may hold descriptors (fs.nr_open is at most 2^30).
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--stacks", "soap", "--operations", "compute", "--profile", "constant", "--users", "2000000000", "--output", output);

        if (DescriptorBudget.ProcessLimit() is null)
        {
            return; // No limit to enforce (Windows, or unlimited).
        }

        Assert.Equal(2, exitCode);
        // The console wraps long lines; compare the words.
        var words = string.Join(' ', text.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("--users 2,000,000,000 needs about 2,000,000,000 file descriptors per process", words, StringComparison.Ordinal);
        Assert.Empty(Directory.GetDirectories(output));
    }
}
