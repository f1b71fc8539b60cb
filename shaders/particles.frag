// particles.frag - cuts the circle out of its square with a one-pixel
// anti-aliased edge.

in vec4 v_color;
in float v_radius_px;
#ifdef GFX_QUADS
in vec2 v_offset_px;
#endif

out vec4 o_color;

void main()
{
#ifdef GFX_POINTS
    vec2 offset = (gl_PointCoord - 0.5) * (2.0 * (v_radius_px + 1.0));
#else
    vec2 offset = v_offset_px;
#endif
    float cover = clamp(v_radius_px + 0.5 - length(offset), 0.0, 1.0);
    if (cover <= 0.0)
        discard;
    o_color = vec4(v_color.rgb, v_color.a * cover);
}
