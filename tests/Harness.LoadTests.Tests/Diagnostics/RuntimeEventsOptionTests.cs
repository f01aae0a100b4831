namespace Harness.LoadTests.Tests.Diagnostics;

public sealed class RuntimeEventsOptionTests
{
    [Fact]
    public void ByDefault_TheRunAttachesWhereItCan() =>
        Assert.True(MeasurementOptionsTests.Bind("run").RuntimeEvents);

    [Theory]
    [InlineData("off", false)]
    [InlineData("OFF", false)]
    [InlineData("on", true)]
    public void RuntimeEvents_AsGiven(string value, bool attaches) =>
        Assert.Equal(attaches, MeasurementOptionsTests.Bind("run", "--runtime-events", value).RuntimeEvents);
}
