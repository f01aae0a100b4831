namespace Harness.ServiceDefaults.Tests;

/// <summary>The CPU limit as cgroup v2 and v1 write it, read from a folder laid out like /sys/fs/cgroup.</summary>
public sealed class CgroupCpuLimitTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "harness-cgroup-tests", Guid.NewGuid().ToString("N"));

    public CgroupCpuLimitTests() => Directory.CreateDirectory(_root);

    [Theory]
    [InlineData("200000 100000\n", 2.0)]
    [InlineData("150000 100000\n", 1.5)]
    [InlineData("max 100000\n", null)]
    [InlineData("garbage\n", null)]
    public void V2_CpuMax_IsQuotaOverPeriod_OrNoLimit(string cpuMax, double? expected)
    {
        // Arrange
        File.WriteAllText(Path.Combine(_root, "cpu.max"), cpuMax);

        // Act
        var limit = CgroupCpuLimit.Read(_root);

        // Assert
        Assert.Equal(expected, limit);
    }

    [Theory]
    [InlineData("cpu", "100000\n", "100000\n", 1.0)]
    [InlineData("cpu,cpuacct", "50000\n", "100000\n", 0.5)]
    [InlineData("cpu", "-1\n", "100000\n", null)]
    public void V1_CfsQuotaAndPeriod_AreQuotaOverPeriod_OrNoLimit(string controller, string quota, string period, double? expected)
    {
        // Arrange
        var folder = Directory.CreateDirectory(Path.Combine(_root, controller)).FullName;
        File.WriteAllText(Path.Combine(folder, "cpu.cfs_quota_us"), quota);
        File.WriteAllText(Path.Combine(folder, "cpu.cfs_period_us"), period);

        // Act
        var limit = CgroupCpuLimit.Read(_root);

        // Assert
        Assert.Equal(expected, limit);
    }

    [Fact]
    public void NoCgroupFiles_IsNoLimit()
    {
        Assert.Null(CgroupCpuLimit.Read(Path.Combine(_root, "missing")));
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(_root, recursive: true);
        }
        catch (IOException)
        {
            // A leftover temp folder is harmless.
        }
    }
}
