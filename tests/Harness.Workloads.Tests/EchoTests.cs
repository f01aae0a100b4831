using Harness.Text;

namespace Harness.Workloads.Tests;

/// <summary>Harness.Text's <see cref="Echo"/>, which the workloads use for the argument they name in an error.</summary>
public sealed class EchoTests
{
    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("nap")]
    public void Bounded_AShortValue_IsItself(string? value) => Assert.Equal(value, Echo.Bounded(value));

    [Fact]
    public void Bounded_AValueOfExactlyTheLimit_IsItself()
    {
        var value = new string('a', Echo.MaxChars);

        Assert.Same(value, Echo.Bounded(value));
    }

    [Fact]
    public void Bounded_ALongerValue_KeepsTheLimitAndSaysHowLongItWas()
    {
        var bounded = Echo.Bounded(new string('a', 100_000));

        Assert.Equal(new string('a', Echo.MaxChars) + "…(cut, 100000 chars)", bounded);
    }

    [Fact]
    public void Bounded_NeverSplitsASurrogatePair()
    {
        // U+1F600 is two UTF-16 units; the first of them falls on the last kept position.
        var value = new string('a', Echo.MaxChars - 1) + "\U0001F600" + "tail";

        var bounded = Echo.Bounded(value);

        Assert.Equal(new string('a', Echo.MaxChars - 1) + $"…(cut, {value.Length} chars)", bounded);
    }
}
