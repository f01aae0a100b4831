using System.Buffers.Binary;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>HTTP/2 frame types, flags, settings and error codes (RFC 9113), and the few frames the runner writes.</summary>
internal static class Http2Frames
{
    public const int HeaderLength = 9;

    /// <summary>SETTINGS_MAX_FRAME_SIZE's default, which the runner keeps: no frame it receives is larger.</summary>
    public const int DefaultMaxFrameSize = 16384;

    public const int DefaultWindow = 65535;

    /// <summary>
    /// The runner's receive window for the connection, topped up once half is used, and the least per stream
    /// (<see cref="Http2Limits.StreamReceiveWindow"/>): large, so the server never waits for it.
    /// </summary>
    public const int ReceiveWindow = 16 * 1024 * 1024;

    public const byte Data = 0x0, Headers = 0x1, Priority = 0x2, RstStream = 0x3, Settings = 0x4, PushPromise = 0x5,
        Ping = 0x6, GoAway = 0x7, WindowUpdate = 0x8, Continuation = 0x9;

    public const byte EndStream = 0x1, Ack = 0x1, EndHeaders = 0x4, Padded = 0x8, PriorityFlag = 0x20;

    public const ushort HeaderTableSize = 0x1, EnablePush = 0x2, MaxConcurrentStreams = 0x3, InitialWindowSize = 0x4, MaxFrameSize = 0x5,
        MaxHeaderListSizeSetting = 0x6;

    public const uint NoError = 0x0, ProtocolError = 0x1, InternalError = 0x2, FlowControlError = 0x3, FrameSizeError = 0x6,
        RefusedStream = 0x7, Cancel = 0x8, CompressionError = 0x9, EnhanceYourCalm = 0xb, InadequateSecurity = 0xc;

    /// <summary>The dynamic table size the runner advertises (SETTINGS_HEADER_TABLE_SIZE): none.</summary>
    public const int AdvertisedHeaderTableSize = 0;

    /// <summary>The client connection preface (RFC 9113 3.4).</summary>
    public static ReadOnlySpan<byte> Preface => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8;

    public static void WriteHeader(Span<byte> destination, int length, byte type, byte flags, int streamId)
    {
        destination[0] = (byte)(length >> 16);
        destination[1] = (byte)(length >> 8);
        destination[2] = (byte)length;
        destination[3] = type;
        destination[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(destination[5..], streamId & int.MaxValue);
    }

    /// <summary>
    /// What the runner sends before anything else: the preface, its SETTINGS (no dynamic table for the server's
    /// encoder, no push, a large stream window, the header list it accepts) and a WINDOW_UPDATE raising the
    /// connection's window to <see cref="ReceiveWindow"/>.
    /// </summary>
    public static byte[] ConnectionStart(int streamReceiveWindow)
    {
        var settings = new (ushort Id, int Value)[]
        {
            (HeaderTableSize, AdvertisedHeaderTableSize), (EnablePush, 0), (InitialWindowSize, streamReceiveWindow),
            (MaxHeaderListSizeSetting, Http2Limits.MaxHeaderListSize),
        };
        var frame = new byte[Preface.Length + HeaderLength + (6 * settings.Length) + HeaderLength + 4];
        Preface.CopyTo(frame);
        var span = frame.AsSpan(Preface.Length);
        WriteHeader(span, 6 * settings.Length, Settings, 0, 0);
        span = span[HeaderLength..];
        foreach (var (id, value) in settings)
        {
            BinaryPrimitives.WriteUInt16BigEndian(span, id);
            BinaryPrimitives.WriteInt32BigEndian(span[2..], value);
            span = span[6..];
        }

        WriteWindowUpdate(span, 0, ReceiveWindow - DefaultWindow);
        return frame;
    }

    public static byte[] SettingsAck()
    {
        var frame = new byte[HeaderLength];
        WriteHeader(frame, 0, Settings, Ack, 0);
        return frame;
    }

    public static byte[] PingAck(ReadOnlySpan<byte> opaque)
    {
        var frame = new byte[HeaderLength + 8];
        WriteHeader(frame, 8, Ping, Ack, 0);
        opaque.CopyTo(frame.AsSpan(HeaderLength));
        return frame;
    }

    public static byte[] WindowUpdateFrame(int streamId, int increment)
    {
        var frame = new byte[HeaderLength + 4];
        WriteWindowUpdate(frame, streamId, increment);
        return frame;
    }

    public static byte[] Reset(int streamId, uint errorCode)
    {
        var frame = new byte[HeaderLength + 4];
        WriteHeader(frame, 4, RstStream, 0, streamId);
        BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(HeaderLength), errorCode);
        return frame;
    }

    public static byte[] GoAwayFrame(int lastStreamId, uint errorCode)
    {
        var frame = new byte[HeaderLength + 8];
        WriteHeader(frame, 8, GoAway, 0, 0);
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(HeaderLength), lastStreamId);
        BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(HeaderLength + 4), errorCode);
        return frame;
    }

    /// <summary>RFC 9113's name of an error code, as gRPC's messages quote it.</summary>
    public static string ErrorName(uint code) => code switch
    {
        NoError => "NO_ERROR",
        ProtocolError => "PROTOCOL_ERROR",
        InternalError => "INTERNAL_ERROR",
        FlowControlError => "FLOW_CONTROL_ERROR",
        0x4 => "SETTINGS_TIMEOUT",
        0x5 => "STREAM_CLOSED",
        FrameSizeError => "FRAME_SIZE_ERROR",
        RefusedStream => "REFUSED_STREAM",
        Cancel => "CANCEL",
        CompressionError => "COMPRESSION_ERROR",
        0xa => "CONNECT_ERROR",
        EnhanceYourCalm => "ENHANCE_YOUR_CALM",
        InadequateSecurity => "INADEQUATE_SECURITY",
        0xd => "HTTP_1_1_REQUIRED",
        _ => $"0x{code:x}",
    };

    private static void WriteWindowUpdate(Span<byte> destination, int streamId, int increment)
    {
        WriteHeader(destination, 4, WindowUpdate, 0, streamId);
        BinaryPrimitives.WriteInt32BigEndian(destination[HeaderLength..], increment);
    }
}
