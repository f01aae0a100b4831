using System.ComponentModel;
using System.Globalization;

namespace Harness.Scheduling;

/// <summary>
/// Converts between a <see cref="SchedulingMode"/> and its configuration name, so that binding
/// <c>Scheduling__Mode</c> is the one place a name becomes a mode. Unlike the default enum converter it refuses
/// numbers and flag combinations (<c>1</c>, <c>iocp,custompool</c>), which name no mode a reader would recognise.
/// </summary>
public sealed class SchedulingModeConverter : TypeConverter
{
    public override bool CanConvertFrom(ITypeDescriptorContext? context, Type sourceType) =>
        sourceType == typeof(string) || base.CanConvertFrom(context, sourceType);

    public override bool CanConvertTo(ITypeDescriptorContext? context, Type? destinationType) =>
        destinationType == typeof(string) || base.CanConvertTo(context, destinationType);

    /// <exception cref="UnknownSchedulingModeException"><paramref name="value"/> names no mode.</exception>
    public override object? ConvertFrom(ITypeDescriptorContext? context, CultureInfo? culture, object value)
    {
        if (value is not string name)
        {
            return base.ConvertFrom(context, culture, value);
        }

        return SchedulingOptions.TryParseMode(name, out var mode) ? mode : throw new UnknownSchedulingModeException(name);
    }

    public override object? ConvertTo(ITypeDescriptorContext? context, CultureInfo? culture, object? value, Type destinationType) =>
        destinationType == typeof(string) && value is SchedulingMode mode
            ? SchedulingOptions.ToName(mode)
            : base.ConvertTo(context, culture, value, destinationType);
}

/// <summary>A configured scheduling mode name that is not one of <see cref="SchedulingOptions.ModeNames"/>.</summary>
public sealed class UnknownSchedulingModeException(string value)
    : FormatException($"Unknown scheduling mode '{value}'. Valid modes: {string.Join(", ", SchedulingOptions.ModeNames.Keys)}.")
{
    /// <summary>The name as configured.</summary>
    public string Value { get; } = value;
}
