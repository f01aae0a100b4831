using System.Buffers.Binary;

namespace Harness.LoadTests.Clients;

/// <summary>
/// The request messages of a client-streaming or bidirectional call, packed into the one byte array a
/// <see cref="RequestBody"/> renders per call: each message after its length, 4 bytes big-endian (gRPC's own framing,
/// less its compression flag). The streaming client unpacks them as it writes them.
/// </summary>
internal static class RequestStream
{
    public static byte[] Pack(IReadOnlyList<byte[]> messages)
    {
        var packed = new byte[messages.Sum(m => 4 + m.Length)];
        var at = 0;
        foreach (var message in messages)
        {
            BinaryPrimitives.WriteInt32BigEndian(packed.AsSpan(at), message.Length);
            message.CopyTo(packed, at + 4);
            at += 4 + message.Length;
        }

        return packed;
    }

    /// <exception cref="ArgumentException">Not bytes <see cref="Pack"/> made.</exception>
    public static IReadOnlyList<byte[]> Unpack(byte[] packed)
    {
        var messages = new List<byte[]>();
        var at = 0;
        while (at < packed.Length)
        {
            var length = at + 4 <= packed.Length ? BinaryPrimitives.ReadInt32BigEndian(packed.AsSpan(at)) : -1;
            if (length < 0 || at + 4 + length > packed.Length)
            {
                throw new ArgumentException($"The packed stream's message at byte {at} runs past its end.", nameof(packed));
            }

            messages.Add(packed.AsSpan(at + 4, length).ToArray());
            at += 4 + length;
        }

        return messages;
    }
}
