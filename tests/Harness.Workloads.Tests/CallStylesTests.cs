using Harness.Agreements;

namespace Harness.Workloads.Tests;

public sealed class CallStylesTests
{
    [Theory]
    [InlineData("blocking", CallStyle.Blocking)]
    [InlineData("ASYNC", CallStyle.Async)]
    [InlineData(" thread-sleep ", CallStyle.ThreadSleep)]
    [InlineData("task-wait", CallStyle.TaskWait)]
    [InlineData("task-delay", CallStyle.TaskDelay)]
    [InlineData("", CallStyle.Blocking)]
    [InlineData(null, CallStyle.Blocking)]
    public void Parse_AcceptsEveryWireName(string? name, CallStyle expected) =>
        Assert.Equal(expected, CallStyles.Parse(name));

    [Fact]
    public void Parse_UnknownName_ListsTheValidOnes()
    {
        var ex = Assert.Throws<WorkloadArgumentException>(() => CallStyles.Parse("nap"));

        Assert.Equal("style must be one of: blocking, async, thread-sleep, task-wait, task-delay; got 'nap'.", ex.Message);
    }

    [Fact]
    public void Parse_AnOverLongName_IsRepeatedOnlyInPart()
    {
        var ex = Assert.Throws<WorkloadArgumentException>(() => CallStyles.Parse(new string('x', 100_000)));

        Assert.StartsWith("style must be one of: blocking, async, thread-sleep, task-wait, task-delay; got 'xxx", ex.Message, StringComparison.Ordinal);
        Assert.EndsWith("…(cut, 100000 chars)'.", ex.Message, StringComparison.Ordinal);
        Assert.True(ex.Message.Length < 400, $"{ex.Message.Length} characters");
    }

    [Fact]
    public void Names_RoundTripThroughParse()
    {
        foreach (var style in Enum.GetValues<CallStyle>())
        {
            Assert.Equal(style, CallStyles.Parse(style.ToName()));
        }
    }
}
